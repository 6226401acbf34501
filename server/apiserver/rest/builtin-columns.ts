import { ageOf } from './human-duration';

/** Table columns of built-in kinds, as kubectl prints them (kube's internal printers, reduced). */
export interface Column { name: string; type: string; format?: string; priority?: number; description?: string; cell: (o: any) => unknown }

const name: Column = { name: 'Name', type: 'string', format: 'name', description: 'Name must be unique within a namespace.', cell: (o) => o.metadata?.name };
const age: Column = { name: 'Age', type: 'string', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.', cell: (o) => ageOf(o.metadata?.creationTimestamp) };

function podStatus(pod: any): string {
  if (pod.metadata?.deletionTimestamp) return 'Terminating';
  const waiting = (pod.status?.containerStatuses ?? []).map((c: any) => c.state?.waiting?.reason ?? c.state?.terminated?.reason).find(Boolean);
  return waiting ?? pod.status?.reason ?? pod.status?.phase ?? 'Unknown';
}

function podReady(pod: any): string {
  const cs = pod.status?.containerStatuses ?? [];
  return `${cs.filter((c: any) => c.ready).length}/${(pod.spec?.containers ?? []).length}`;
}

function nodeStatus(node: any): string {
  const ready = (node.status?.conditions ?? []).find((c: any) => c.type === 'Ready');
  let s = !ready ? 'Unknown' : ready.status === 'True' ? 'Ready' : ready.status === 'False' ? 'NotReady' : 'Unknown';
  if (node.spec?.unschedulable) s += ',SchedulingDisabled';
  return s;
}

function nodeRoles(node: any): string {
  const roles = Object.keys(node.metadata?.labels ?? {}).filter((k) => k.startsWith('node-role.kubernetes.io/')).map((k) => k.slice('node-role.kubernetes.io/'.length));
  return roles.length ? roles.sort().join(',') : '<none>';
}

const nodeAddress = (type: string) => (n: any) => (n.status?.addresses ?? []).find((a: any) => a.type === type)?.address ?? '<none>';

function servicePorts(svc: any): string {
  const ports = (svc.spec?.ports ?? []).map((p: any) => `${p.port}${p.nodePort ? ':' + p.nodePort : ''}/${p.protocol ?? 'TCP'}`);
  return ports.length ? ports.join(',') : '<none>';
}

function eventObject(ev: any): string {
  const o = ev.involvedObject ?? ev.regarding ?? {};
  return `${String(o.kind ?? '').toLowerCase()}/${o.name ?? ''}`;
}

const str = (n: string, cell: (o: any) => unknown, priority = 0): Column => ({ name: n, type: 'string', priority, cell });
const int = (n: string, cell: (o: any) => unknown): Column => ({ name: n, type: 'integer', cell });

const COLUMNS: Record<string, Column[]> = {
  '/pods': [name, str('Ready', podReady), str('Status', podStatus),
    int('Restarts', (p) => (p.status?.containerStatuses ?? []).reduce((n: number, c: any) => n + (c.restartCount ?? 0), 0)), age,
    str('IP', (p) => p.status?.podIP ?? '<none>', 1), str('Node', (p) => p.spec?.nodeName ?? '<none>', 1),
    str('Nominated Node', (p) => p.status?.nominatedNodeName ?? '<none>', 1), str('Readiness Gates', () => '<none>', 1)],
  '/nodes': [name, str('Status', nodeStatus), str('Roles', nodeRoles), age, str('Version', (n) => n.status?.nodeInfo?.kubeletVersion ?? ''),
    str('Internal-IP', nodeAddress('InternalIP'), 1), str('External-IP', nodeAddress('ExternalIP'), 1),
    str('OS-Image', (n) => n.status?.nodeInfo?.osImage ?? '<unknown>', 1), str('Kernel-Version', (n) => n.status?.nodeInfo?.kernelVersion ?? '<unknown>', 1),
    str('Container-Runtime', (n) => n.status?.nodeInfo?.containerRuntimeVersion ?? '<unknown>', 1)],
  '/namespaces': [name, str('Status', (n) => n.status?.phase ?? ''), age],
  '/configmaps': [name, int('Data', (c) => Object.keys(c.data ?? {}).length + Object.keys(c.binaryData ?? {}).length), age],
  '/secrets': [name, str('Type', (s) => s.type ?? ''), int('Data', (s) => Object.keys(s.data ?? {}).length), age],
  '/services': [name, str('Type', (s) => s.spec?.type ?? ''), str('Cluster-IP', (s) => s.spec?.clusterIP ?? '<none>'),
    str('External-IP', (s) => (s.spec?.externalIPs ?? []).join(',') || '<none>'), str('Port(s)', servicePorts), age],
  '/events': [str('Last Seen', (e) => ageOf(e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp)), str('Type', (e) => e.type ?? ''),
    str('Reason', (e) => e.reason ?? ''), str('Object', eventObject), str('Message', (e) => e.message ?? e.note ?? '')],
  'coordination.k8s.io/leases': [name, str('Holder', (l) => l.spec?.holderIdentity ?? ''), age],
  'apiextensions.k8s.io/customresourcedefinitions': [name, { name: 'Created At', type: 'date', cell: (c) => c.metadata?.creationTimestamp }],
  'apiregistration.k8s.io/apiservices': [name, str('Service', (a) => (a.spec?.service ? `${a.spec.service.namespace}/${a.spec.service.name}` : 'Local')),
    str('Available', (a) => (a.status?.conditions ?? []).find((c: any) => c.type === 'Available')?.status ?? 'Unknown'), age],
};
COLUMNS['events.k8s.io/events'] = COLUMNS['/events'];

export function builtinColumns(group: string, resource: string): Column[] {
  return COLUMNS[`${group}/${resource}`] ?? [name, age];
}
