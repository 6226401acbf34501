/** kubectl's columns for RBAC kinds, as kube's printers build them. */
import type { BuiltinColumn } from './builtin-columns';
import { humanAge } from './human-duration';

interface BindingLike { roleRef?: { kind?: string; name?: string }; subjects?: { kind?: string; name?: string; namespace?: string }[] }

const names = (o: BindingLike, kind: string) => (o.subjects ?? []).filter((s) => s.kind === kind).map((s) => (kind === 'ServiceAccount' ? `${s.namespace ?? ''}/${s.name ?? ''}` : s.name ?? '')).join(', ');

export const ROLE_COLUMNS: BuiltinColumn[] = [
  { name: 'Created At', type: 'date', cell: (o) => o.metadata?.creationTimestamp ?? '' },
];

export const BINDING_COLUMNS: BuiltinColumn[] = [
  { name: 'Role', type: 'string', cell: (o: BindingLike) => `${o.roleRef?.kind ?? ''}/${o.roleRef?.name ?? ''}` },
  { name: 'Age', type: 'string', cell: (o, now) => humanAge(o.metadata?.creationTimestamp, now) },
  { name: 'Users', type: 'string', priority: 1, cell: (o: BindingLike) => names(o, 'User') },
  { name: 'Groups', type: 'string', priority: 1, cell: (o: BindingLike) => names(o, 'Group') },
  { name: 'ServiceAccounts', type: 'string', priority: 1, cell: (o: BindingLike) => names(o, 'ServiceAccount') },
];
