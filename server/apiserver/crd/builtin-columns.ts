import { DAEMON_SET_COLUMNS, DEPLOYMENT_COLUMNS, REPLICA_SET_COLUMNS } from './apps-columns';
import { humanAge } from './human-duration';
import { ENDPOINTS_COLUMNS, ENDPOINT_SLICE_COLUMNS, SERVICE_COLUMNS } from './network-columns';
import { NETWORK_POLICY_COLUMNS } from './networkpolicy-columns';
import { BINDING_COLUMNS, ROLE_COLUMNS } from './rbac-columns';
import { PV_COLUMNS, PVC_COLUMNS, STORAGE_CLASS_COLUMNS, storageClassName } from './storage-columns';

/** A column of a built-in kind's table, with the function that renders its cell. */
export interface BuiltinColumn {
  name: string;
  type: string;
  format?: string;
  priority?: number;
  description?: string;
  cell: (o: any, now: number) => unknown;
}

const age: BuiltinColumn = { name: 'Age', type: 'string', cell: (o, now) => humanAge(o.metadata?.creationTimestamp, now) };

function podReady(o: any): string {
  const statuses: any[] = o.status?.containerStatuses ?? [];
  const total = o.spec?.containers?.length ?? statuses.length;
  return `${statuses.filter((s) => s.ready).length}/${total}`;
}

function podStatus(o: any): string {
  if (o.metadata?.deletionTimestamp) return 'Terminating';
  const waiting = (o.status?.containerStatuses ?? []).find((s: any) => s.state?.waiting?.reason)?.state.waiting.reason;
  return waiting ?? o.status?.reason ?? o.status?.phase ?? 'Unknown';
}

const podRestarts = (o: any) => (o.status?.containerStatuses ?? []).reduce((n: number, s: any) => n + (s.restartCount ?? 0), 0);

function nodeStatus(o: any): string {
  const ready = (o.status?.conditions ?? []).find((c: any) => c.type === 'Ready');
  const base = ready?.status === 'True' ? 'Ready' : ready ? 'NotReady' : 'Unknown';
  return o.spec?.unschedulable ? `${base},SchedulingDisabled` : base;
}

const nodeRoles = (o: any) =>
  Object.keys(o.metadata?.labels ?? {})
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
    { name: 'IP', type: 'string', priority: 1, cell: (o) => o.status?.podIP ?? '<none>' },
    { name: 'Node', type: 'string', priority: 1, cell: (o) => o.spec?.nodeName ?? '<none>' },
  ],
  Node: [
    { name: 'Status', type: 'string', cell: nodeStatus },
    { name: 'Roles', type: 'string', cell: nodeRoles },
    age,
    { name: 'Version', type: 'string', cell: (o) => o.status?.nodeInfo?.kubeletVersion ?? '' },
  ],
  Namespace: [{ name: 'Status', type: 'string', cell: (o) => o.status?.phase ?? 'Active' }, age],
  ConfigMap: [{ name: 'Data', type: 'integer', cell: (o) => Object.keys(o.data ?? {}).length + Object.keys(o.binaryData ?? {}).length }, age],
  Secret: [
    { name: 'Type', type: 'string', cell: (o) => o.type ?? 'Opaque' },
    { name: 'Data', type: 'integer', cell: (o) => Object.keys(o.data ?? {}).length },
    age,
  ],
  Event: [
    { name: 'Last Seen', type: 'string', cell: (o, now) => humanAge(o.lastTimestamp ?? o.eventTime ?? o.metadata?.creationTimestamp, now) },
    { name: 'Type', type: 'string', cell: (o) => o.type ?? '' },
    { name: 'Reason', type: 'string', cell: (o) => o.reason ?? '' },
    { name: 'Object', type: 'string', cell: (o) => `${String(o.involvedObject?.kind ?? '').toLowerCase()}/${o.involvedObject?.name ?? ''}` },
    { name: 'Message', type: 'string', cell: (o) => o.message ?? o.note ?? '' },
  ],
  Lease: [{ name: 'Holder', type: 'string', cell: (o) => o.spec?.holderIdentity ?? '' }, age],
  PersistentVolumeClaim: PVC_COLUMNS,
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
  CustomResourceDefinition: [{ name: 'Created At', type: 'date', cell: (o) => o.metadata?.creationTimestamp ?? '' }],
  APIService: [
    { name: 'Service', type: 'string', cell: (o) => (o.spec?.service ? `${o.spec.service.namespace}/${o.spec.service.name}` : 'Local') },
    { name: 'Available', type: 'string', cell: apiServiceAvailable },
    age,
  ],
};

/** kinds whose Name cell is more than metadata.name */
export const BUILTIN_NAME_CELLS: Record<string, (o: unknown) => string> = { StorageClass: storageClassName };

function apiServiceAvailable(o: any): string {
  const c = (o.status?.conditions ?? []).find((x: any) => x.type === 'Available');
  if (!c) return 'Unknown';
  return c.status === 'True' ? 'True' : `${c.status} (${c.reason ?? ''})`;
}
