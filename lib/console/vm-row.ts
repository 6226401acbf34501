/** One VM list row: the VM joined with its VMI, flattened for display, filtering and sorting. */
import {
  DEFAULT_INSTANCETYPE_KIND, PrintableStatus, VMIConditionType, computePrintableStatus, findCondition,
  type Instancetype, type VirtualMachine, type VirtualMachineInstance,
} from '../kubevirt';
import { quantityBytes } from './format';

export interface VMRow {
  key: string;
  namespace: string;
  name: string;
  status: string;
  /** Why it is not running, in a few words (empty when Running). */
  reason: string;
  node: string;
  ip: string;
  cpus: number;
  memoryBytes: number;
  created: string;
  vm: VirtualMachine;
  vmi?: VirtualMachineInstance;
}

const vmKey = (ns: string | undefined, name: string | undefined) => `${ns ?? ''}/${name ?? ''}`;

/** The spec that runs: the VMI's (expanded with the instance type) when there is one, else the template. */
function domainOf(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined) {
  return vmi?.spec?.domain ?? vm.spec?.template?.spec?.domain;
}

function cpuCount(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined): number {
  const cpu = domainOf(vm, vmi)?.cpu;
  return (cpu?.sockets ?? 1) * (cpu?.cores ?? 1) * (cpu?.threads ?? 1);
}

function memoryOf(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined): number {
  const d = domainOf(vm, vmi);
  return quantityBytes(d?.memory?.guest ?? d?.resources?.requests?.memory) ?? 0;
}

/** The short reason shown beside a status that is not Running. */
export function statusReason(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, status: string): string {
  if (status === PrintableStatus.Running) return '';
  const failure = findCondition(vm, 'Failure');
  if (failure?.status === 'True') return failure.message || failure.reason || '';
  for (const type of [VMIConditionType.PodScheduled, VMIConditionType.Synchronized, VMIConditionType.Ready]) {
    const c = findCondition(vmi, type);
    if (c?.status === 'False' && c.reason && c.reason !== 'GuestNotRunning') return c.message ? `${c.reason}: ${c.message}` : c.reason;
  }
  if (status === PrintableStatus.Paused) return findCondition(vmi, VMIConditionType.Paused)?.reason ?? '';
  if (status === PrintableStatus.CrashLoopBackOff) return `failed ${vm.status?.startFailure?.consecutiveFailCount ?? 0} times in a row`;
  return '';
}

/** CPU count and memory of each cluster instance type, by name (a stopped instance-typed VM's size). */
export type InstancetypeSizes = ReadonlyMap<string, { cpus: number; memoryBytes: number }>;

const NAMESPACED_KIND = 'VirtualMachineInstancetype';
/** a namespaced type's key in InstancetypeSizes (a cluster type's key is its name) */
const namespacedKey = (namespace: string | undefined, name: string) => `${NAMESPACED_KIND}/${namespace ?? 'default'}/${name}`;

/** Sizes by name for the cluster types, and by namespace and name for the namespaced ones. */
export function instancetypeSizes(types: Instancetype[], namespacedTypes: Instancetype[] = []): InstancetypeSizes {
  const out = new Map<string, { cpus: number; memoryBytes: number }>();
  const add = (t: Instancetype, key: string) => {
    const cpus = t.spec?.cpu?.guest;
    const memoryBytes = quantityBytes(t.spec?.memory?.guest);
    if (t.metadata.name && typeof cpus === 'number' && memoryBytes !== undefined) out.set(key, { cpus, memoryBytes });
  };
  for (const t of types) add(t, t.metadata.name ?? '');
  for (const t of namespacedTypes) add(t, namespacedKey(t.metadata.namespace, t.metadata.name ?? ''));
  return out;
}

/** The size a VM without a VMI gets from its instance type: the cluster one, or its namespace's own. */
function typedSize(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, sizes: InstancetypeSizes | undefined) {
  const m = vm.spec?.instancetype;
  if (vmi || !m?.name || !sizes) return undefined;
  if (m.kind === NAMESPACED_KIND) return sizes.get(namespacedKey(vm.metadata.namespace, m.name));
  if (m.kind && m.kind !== DEFAULT_INSTANCETYPE_KIND) return undefined;
  return sizes.get(m.name);
}

/** Rows for every VM; a VMI is matched by namespace/name (a VM's VMI has the VM's name). */
export function buildVMRows(vms: VirtualMachine[], vmis: VirtualMachineInstance[], now: Date, sizes?: InstancetypeSizes): VMRow[] {
  const byKey = new Map(vmis.map((v) => [vmKey(v.metadata.namespace, v.metadata.name), v]));
  return vms.map((vm) => {
    const key = vmKey(vm.metadata.namespace, vm.metadata.name);
    const vmi = byKey.get(key);
    const status = vm.status?.printableStatus ?? computePrintableStatus(vm, vmi, { now });
    const typed = typedSize(vm, vmi, sizes);
    return {
      key, vm, vmi, status,
      namespace: vm.metadata.namespace ?? '',
      name: vm.metadata.name ?? '',
      reason: statusReason(vm, vmi, status),
      node: vmi?.status?.nodeName ?? '',
      ip: vmi?.status?.interfaces?.find((i) => i.ipAddress)?.ipAddress ?? '',
      cpus: typed?.cpus ?? cpuCount(vm, vmi),
      memoryBytes: typed?.memoryBytes ?? memoryOf(vm, vmi),
      created: vm.metadata.creationTimestamp ?? '',
    };
  });
}

export interface VMFilter {
  search?: string;
  namespace?: string;
  status?: string;
  node?: string;
}

export function filterVMRows(rows: VMRow[], f: VMFilter): VMRow[] {
  const q = f.search?.trim().toLowerCase();
  return rows.filter((r) =>
    (!f.namespace || r.namespace === f.namespace) &&
    (!f.status || r.status === f.status) &&
    (!f.node || r.node === f.node) &&
    (!q || r.name.toLowerCase().includes(q) || r.ip.includes(q) || r.node.toLowerCase().includes(q) || r.namespace.toLowerCase().includes(q)));
}

export type VMSortKey = 'name' | 'namespace' | 'status' | 'node' | 'ip' | 'cpus' | 'memoryBytes' | 'created';

export function sortVMRows(rows: VMRow[], key: VMSortKey, dir: 'asc' | 'desc'): VMRow[] {
  const sign = dir === 'asc' ? 1 : -1;
  const cmp = (a: VMRow, b: VMRow): number => {
    const [x, y] = [a[key], b[key]];
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true });
    return c !== 0 ? c * sign : a.key.localeCompare(b.key, undefined, { numeric: true });
  };
  return [...rows].sort(cmp);
}

/** Counts by status, for the overview. */
export function countByStatus(rows: VMRow[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
}
