/**
 * What the endpoints controller writes for a Service with a selector, as pure functions: the v1
 * Endpoints (ready addresses and not-ready ones, grouped by the ports they resolve to) and the
 * discovery.k8s.io/v1 EndpointSlices (one per distinct port set, normally one).
 */
import type { CoreV1EndpointPort, DiscoveryV1EndpointPort, V1EndpointAddress, V1EndpointSubset, V1Pod, V1Service } from '@kubernetes/client-node';
import { podReady, podsOfService, resolveTargetPort } from './selection';

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
export const MANAGED_BY = 'endpointslice-controller.k8s.io';
export const HEADLESS_LABEL = 'service.kubernetes.io/headless';

export interface SliceEndpoint {
  addresses: string[];
  conditions: { ready: boolean; serving: boolean; terminating: boolean };
  nodeName?: string;
  /** the Pod's hostname when its subdomain is the Service (DNS names `<hostname>.<svc>.<ns>.svc`) */
  hostname?: string;
  targetRef: { kind: 'Pod'; namespace: string; name: string; uid: string };
}

export interface DesiredSlice {
  ports: DiscoveryV1EndpointPort[];
  endpoints: SliceEndpoint[];
}

interface PodEndpoint {
  pod: V1Pod;
  ports: DiscoveryV1EndpointPort[];
  ready: boolean;
  terminating: boolean;
}

function podEndpoint(svc: V1Service, pod: V1Pod): PodEndpoint {
  const ports: DiscoveryV1EndpointPort[] = [];
  for (const sp of svc.spec?.ports ?? []) {
    const port = resolveTargetPort(pod, sp);
    if (port === undefined) continue;
    ports.push(prune({ name: sp.name ?? '', port, protocol: sp.protocol ?? 'TCP', appProtocol: sp.appProtocol }));
  }
  const terminating = Boolean(pod.metadata?.deletionTimestamp);
  const ready = svc.spec?.publishNotReadyAddresses === true || (podReady(pod) && !terminating);
  return { pod, ports, ready, terminating };
}

function prune<T extends object>(o: T): T {
  for (const [k, v] of Object.entries(o)) if (v === undefined) delete (o as Record<string, unknown>)[k];
  return o;
}

const portsKey = (ports: DiscoveryV1EndpointPort[]) => JSON.stringify([...ports].sort(byNameThenPort).map((p) => [p.name, p.port, p.protocol, p.appProtocol]));
const byNameThenPort = (a: DiscoveryV1EndpointPort, b: DiscoveryV1EndpointPort) => (a.name ?? '').localeCompare(b.name ?? '') || (a.port ?? 0) - (b.port ?? 0);
const byIp = (a: { pod: V1Pod }, b: { pod: V1Pod }) => (a.pod.status?.podIP ?? '').localeCompare(b.pod.status?.podIP ?? '', 'en', { numeric: true });

/** kube sets an endpoint's hostname when the Pod names one and its subdomain is the Service */
function hostnameFor(svc: V1Service, pod: V1Pod): string | undefined {
  return pod.spec?.hostname && pod.spec.subdomain === svc.metadata?.name ? pod.spec.hostname : undefined;
}

function targetRef(pod: V1Pod): SliceEndpoint['targetRef'] {
  return { kind: 'Pod', namespace: pod.metadata?.namespace ?? '', name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' };
}

/** the Pods of the Service, grouped by the ports they resolve to (ordered by key, then by IP) */
function groups(svc: V1Service, pods: V1Pod[]): [string, PodEndpoint[]][] {
  const byKey = new Map<string, PodEndpoint[]>();
  for (const pod of podsOfService(svc, pods)) {
    const ep = podEndpoint(svc, pod);
    if (svc.spec?.ports?.length && !ep.ports.length) continue;
    const key = portsKey(ep.ports);
    byKey.set(key, [...(byKey.get(key) ?? []), ep]);
  }
  return [...byKey.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, eps]) => [k, eps.sort(byIp)]);
}

/** EndpointSlices for the Service: one per port set; one empty slice when no Pod backs it */
export function desiredSlices(svc: V1Service, pods: V1Pod[]): DesiredSlice[] {
  const found = groups(svc, pods);
  if (!found.length) return [{ ports: [], endpoints: [] }];
  return found.map(([, eps]) => ({
    ports: [...eps[0].ports].sort(byNameThenPort),
    endpoints: eps.map(({ pod, ready, terminating }) => prune({
      addresses: [pod.status!.podIP!],
      conditions: { ready, serving: terminating ? podReady(pod) : ready, terminating },
      nodeName: pod.spec?.nodeName,
      hostname: hostnameFor(svc, pod),
      targetRef: targetRef(pod),
    })),
  }));
}

function address(svc: V1Service, pod: V1Pod): V1EndpointAddress {
  return prune({ ip: pod.status!.podIP!, hostname: hostnameFor(svc, pod), nodeName: pod.spec?.nodeName, targetRef: targetRef(pod) });
}

/** v1 Endpoints subsets (kube's RepackSubsets: one subset per port set); terminating Pods are left out */
export function desiredSubsets(svc: V1Service, pods: V1Pod[]): V1EndpointSubset[] {
  return groups(svc, pods).flatMap(([, eps]) => {
    const live = eps.filter((e) => !e.terminating || svc.spec?.publishNotReadyAddresses === true);
    const ready = live.filter((e) => e.ready).map((e) => address(svc, e.pod));
    const notReady = live.filter((e) => !e.ready).map((e) => address(svc, e.pod));
    if (!ready.length && !notReady.length) return [];
    const ports: CoreV1EndpointPort[] = [...eps[0].ports].sort(byNameThenPort).map((p) => prune({ name: p.name || undefined, port: p.port!, protocol: p.protocol, appProtocol: p.appProtocol }));
    return [prune({ addresses: ready.length ? ready : undefined, notReadyAddresses: notReady.length ? notReady : undefined, ports: ports.length ? ports : undefined })];
  });
}

/** labels of both: the Service's own, plus the slice's service name and manager */
export function sliceLabels(svc: V1Service): Record<string, string> {
  const labels: Record<string, string> = { ...(svc.metadata?.labels ?? {}), [SERVICE_NAME_LABEL]: svc.metadata?.name ?? '', [MANAGED_BY_LABEL]: MANAGED_BY };
  if (svc.spec?.clusterIP === 'None') labels[HEADLESS_LABEL] = '';
  return labels;
}

export function endpointsLabels(svc: V1Service): Record<string, string> {
  const labels: Record<string, string> = { ...(svc.metadata?.labels ?? {}) };
  if (svc.spec?.clusterIP === 'None') labels[HEADLESS_LABEL] = '';
  return labels;
}

/** the controller owner reference to the Service (the garbage collector removes what it owns) */
export function ownerReference(svc: V1Service) {
  return { apiVersion: 'v1', kind: 'Service', name: svc.metadata?.name ?? '', uid: svc.metadata?.uid ?? '', controller: true, blockOwnerDeletion: true };
}
