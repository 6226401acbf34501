import { DAEMON_SET_COLUMNS, DEPLOYMENT_COLUMNS, REPLICA_SET_COLUMNS } from './apps-columns';
import { humanAge } from './human-duration';
import { ENDPOINTS_COLUMNS, ENDPOINT_SLICE_COLUMNS, SERVICE_COLUMNS } from './network-columns';
import { NETWORK_POLICY_COLUMNS } from './networkpolicy-columns';
import { BINDING_COLUMNS, ROLE_COLUMNS } from './rbac-columns';
import { RESOURCE_QUOTA_COLUMNS } from './quota-columns';
import { PV_COLUMNS, PVC_COLUMNS, STORAGE_CLASS_COLUMNS, storageClassName } from './storage-columns';

/** A column of a built-in kind's table, with the function that renders its cell. */
export interface BuiltinColumn {
  name: string;
  type: string;
  format?: string;
  priority?: number;
  description?: string;
  cell: (o: unknown, now: number) => unknown;
}

interface Condition { type?: string; status?: string; reason?: string }
interface ContainerStatus { ready?: boolean; restartCount?: number; state?: { waiting?: { reason?: string } } }

/** the fields of the built-in kinds below that their cells read (each kind uses its own few) */
interface Shown {
  metadata?: { creationTimestamp?: string; deletionTimestamp?: string; labels?: Record<string, string> };
  spec?: {
    containers?: unknown[]; nodeName?: string; unschedulable?: boolean; holderIdentity?: string;
    service?: { namespace?: string; name?: string };
  };
  status?: {
    containerStatuses?: ContainerStatus[]; reason?: string; phase?: string; podIP?: string;
    conditions?: Condition[]; nodeInfo?: { kubeletVersion?: string };
  };
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
  type?: string;
  lastTimestamp?: string;
  eventTime?: string;
  reason?: string;
  involvedObject?: { kind?: string; name?: string };
  message?: string;
  note?: string;
}

/** a stored object of the column's kind */
const shown = (o: unknown) => o as Shown;

const age: BuiltinColumn = { name: 'Age', type: 'string', cell: (o, now) => humanAge(shown(o).metadata?.creationTimestamp, now) };

function podReady(obj: unknown): string {
  const o = shown(obj);
  const statuses: ContainerStatus[] = o.status?.containerStatuses ?? [];
  const total = o.spec?.containers?.length ?? statuses.length;
  return `${statuses.filter((s) => s.ready).length}/${total}`;
}

function podStatus(obj: unknown): string {
  const o = shown(obj);
  if (o.metadata?.deletionTimestamp) return 'Terminating';
  const waiting = (o.status?.containerStatuses ?? []).find((s) => s.state?.waiting?.reason)?.state?.waiting?.reason;
  return waiting ?? o.status?.reason ?? o.status?.phase ?? 'Unknown';
}

const podRestarts = (o: unknown) => (shown(o).status?.containerStatuses ?? []).reduce((n: number, s) => n + (s.restartCount ?? 0), 0);

function nodeStatus(obj: unknown): string {
  const o = shown(obj);
  const ready = (o.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const base = ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown';
  return o.spec?.unschedulable ? `${base},SchedulingDisabled` : base;
}

const nodeRoles = (o: unknown) =>
  Object.keys(shown(o).metadata?.labels ?? {})
    .filter((l) => l.startsWith('node-role.kubernetes.io/'))
    .map((l) => l.slice('node-role.kubernetes.io/'.length))
    .join(',') || '<none>';

/** kubectl's familiar columns for the built-in kinds we serve (besides Name, which is always first). */
export const BUILTIN_COLUMNS: Record<string, BuiltinColumn[]> = {
  Pod: [
    { name: 'Ready', type: 'string', cell: podReady },
    { name: 'Status', type: 'string', cell: podStatus },
    { name: 'Restarts', type: 'string', cell: (o) => String(podRestarts(o)) },
    age,
    { name: 'IP', type: 'string', priority: 1, cell: (o) => shown(o).status?.podIP ?? '<none>' },
    { name: 'Node', type: 'string', priority: 1, cell: (o) => shown(o).spec?.nodeName ?? '<none>' },
  ],
  Node: [
    { name: 'Status', type: 'string', cell: nodeStatus },
    { name: 'Roles', type: 'string', cell: nodeRoles },
    age,
    { name: 'Version', type: 'string', cell: (o) => shown(o).status?.nodeInfo?.kubeletVersion ?? '' },
  ],
  Namespace: [{ name: 'Status', type: 'string', cell: (o) => shown(o).status?.phase ?? 'Active' }, age],
  ConfigMap: [{ name: 'Data', type: 'integer', cell: (o) => Object.keys(shown(o).data ?? {}).length + Object.keys(shown(o).binaryData ?? {}).length }, age],
  Secret: [
    { name: 'Type', type: 'string', cell: (o) => shown(o).type ?? 'Opaque' },
    { name: 'Data', type: 'integer', cell: (o) => Object.keys(shown(o).data ?? {}).length },
    age,
  ],
  Event: [
    { name: 'Last Seen', type: 'string', cell: (o, now) => humanAge(shown(o).lastTimestamp ?? shown(o).eventTime ?? shown(o).metadata?.creationTimestamp, now) },
    { name: 'Type', type: 'string', cell: (o) => shown(o).type ?? '' },
    { name: 'Reason', type: 'string', cell: (o) => shown(o).reason ?? '' },
    { name: 'Object', type: 'string', cell: (o) => `${String(shown(o).involvedObject?.kind ?? '').toLowerCase()}/${shown(o).involvedObject?.name ?? ''}` },
    { name: 'Message', type: 'string', cell: (o) => shown(o).message ?? shown(o).note ?? '' },
  ],
  Lease: [{ name: 'Holder', type: 'string', cell: (o) => shown(o).spec?.holderIdentity ?? '' }, age],
  PersistentVolumeClaim: PVC_COLUMNS,
  ResourceQuota: RESOURCE_QUOTA_COLUMNS,
  PersistentVolume: PV_COLUMNS,
  StorageClass: STORAGE_CLASS_COLUMNS,
  Service: SERVICE_COLUMNS,
  Endpoints: ENDPOINTS_COLUMNS,
  Deployment: DEPLOYMENT_COLUMNS,
  ReplicaSet: REPLICA_SET_COLUMNS,
  DaemonSet: DAEMON_SET_COLUMNS,
  EndpointSlice: ENDPOINT_SLICE_COLUMNS,
  NetworkPolicy: NETWORK_POLICY_COLUMNS,
  Role: ROLE_COLUMNS,
  ClusterRole: ROLE_COLUMNS,
  RoleBinding: BINDING_COLUMNS,
  ClusterRoleBinding: BINDING_COLUMNS,
  CustomResourceDefinition: [{ name: 'Created At', type: 'date', cell: (o) => shown(o).metadata?.creationTimestamp ?? '' }],
  APIService: [
    { name: 'Service', type: 'string', cell: (o) => { const svc = shown(o).spec?.service; return svc ? `${svc.namespace}/${svc.name}` : 'Local'; } },
    { name: 'Available', type: 'string', cell: apiServiceAvailable },
    age,
  ],
};

/** kinds whose Name cell is more than metadata.name */
export const BUILTIN_NAME_CELLS: Record<string, (o: unknown) => string> = { StorageClass: storageClassName };

function apiServiceAvailable(o: unknown): string {
  const c = (shown(o).status?.conditions ?? []).find((x) => x.type === 'Available');
  if (!c) return 'Unknown';
  return c.status === 'True' ? 'True' : `${c.status} (${c.reason ?? ''})`;
}
