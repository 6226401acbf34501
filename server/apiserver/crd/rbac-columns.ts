/** kubectl's columns for RBAC kinds, as kube's printers build them. */
import type { BuiltinColumn } from './builtin-columns';
import { humanAge } from './human-duration';

interface BindingLike { metadata?: { creationTimestamp?: string }; roleRef?: { kind?: string; name?: string }; subjects?: { kind?: string; name?: string; namespace?: string }[] }

/** a stored Role, ClusterRole, RoleBinding or ClusterRoleBinding */
const binding = (o: unknown) => o as BindingLike;

const names = (o: BindingLike, kind: string) => (o.subjects ?? []).filter((s) => s.kind === kind).map((s) => (kind === 'ServiceAccount' ? `${s.namespace ?? ''}/${s.name ?? ''}` : s.name ?? '')).join(', ');

export const ROLE_COLUMNS: BuiltinColumn[] = [
  { name: 'Created At', type: 'date', cell: (o) => binding(o).metadata?.creationTimestamp ?? '' },
];

export const BINDING_COLUMNS: BuiltinColumn[] = [
  { name: 'Role', type: 'string', cell: (o) => `${binding(o).roleRef?.kind ?? ''}/${binding(o).roleRef?.name ?? ''}` },
  { name: 'Age', type: 'string', cell: (o, now) => humanAge(binding(o).metadata?.creationTimestamp, now) },
  { name: 'Users', type: 'string', priority: 1, cell: (o) => names(binding(o), 'User') },
  { name: 'Groups', type: 'string', priority: 1, cell: (o) => names(binding(o), 'Group') },
  { name: 'ServiceAccounts', type: 'string', priority: 1, cell: (o) => names(binding(o), 'ServiceAccount') },
];
