/** kubectl's columns for Deployment, ReplicaSet and DaemonSet (kube's internalversion printers). */
import type { BuiltinColumn } from './builtin-columns';
import { humanAge } from './human-duration';
import { formatLabelSelector } from './networkpolicy-columns';

type Obj = Record<string, unknown>;

const rec = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const spec = (o: unknown) => rec(rec(o).spec);
const status = (o: unknown) => rec(rec(o).status);
const age: BuiltinColumn = { name: 'Age', type: 'string', cell: (o, now) => humanAge(rec(rec(o).metadata).creationTimestamp, now) };
const int = (name: string, cell: (o: unknown) => number): BuiltinColumn => ({ name, type: 'integer', cell });

const containers = (o: unknown) => list(rec(spec(o).template).spec ? rec(rec(spec(o).template).spec).containers : []).map(rec);

/** Containers, Images and Selector: the wide columns every workload shares */
const WIDE: BuiltinColumn[] = [
  { name: 'Containers', type: 'string', priority: 1, cell: (o) => containers(o).map((c) => String(c.name ?? '')).join(',') },
  { name: 'Images', type: 'string', priority: 1, cell: (o) => containers(o).map((c) => String(c.image ?? '')).join(',') },
  { name: 'Selector', type: 'string', priority: 1, cell: (o) => formatLabelSelector(spec(o).selector) },
];

/** labels.FormatLabels: `k=v` sorted by key, `<none>` when empty */
function formatLabels(m: unknown): string {
  const entries = Object.entries(rec(m)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.map(([k, v]) => `${k}=${String(v)}`).join(',') || '<none>';
}

export const DEPLOYMENT_COLUMNS: BuiltinColumn[] = [
  { name: 'Ready', type: 'string', cell: (o) => `${num(status(o).readyReplicas)}/${num(spec(o).replicas)}` },
  int('Up-to-date', (o) => num(status(o).updatedReplicas)),
  int('Available', (o) => num(status(o).availableReplicas)),
  age,
  ...WIDE,
];

export const REPLICA_SET_COLUMNS: BuiltinColumn[] = [
  int('Desired', (o) => num(spec(o).replicas)),
  int('Current', (o) => num(status(o).replicas)),
  int('Ready', (o) => num(status(o).readyReplicas)),
  age,
  ...WIDE,
];

export const DAEMON_SET_COLUMNS: BuiltinColumn[] = [
  int('Desired', (o) => num(status(o).desiredNumberScheduled)),
  int('Current', (o) => num(status(o).currentNumberScheduled)),
  int('Ready', (o) => num(status(o).numberReady)),
  int('Up-to-date', (o) => num(status(o).updatedNumberScheduled)),
  int('Available', (o) => num(status(o).numberAvailable)),
  { name: 'Node Selector', type: 'string', cell: (o) => formatLabels(rec(rec(spec(o).template).spec).nodeSelector) },
  age,
  ...WIDE,
];
