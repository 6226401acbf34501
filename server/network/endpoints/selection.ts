/** Which Pods back a Service, and what each contributes: its address, readiness, and ports. */
import type { V1Pod, V1Service, V1ServicePort } from '@kubernetes/client-node';

/** the address a Pod gets under user networking: nobody else can reach it */
export const LOOPBACK_POD_IP = '127.0.0.1';

export function selects(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector || !Object.keys(selector).length) return false;
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

export function podReady(pod: V1Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/** a Pod that can be an endpoint: running or starting, with a pod-network address */
export function canBeEndpoint(pod: V1Pod): boolean {
  const ip = pod.status?.podIP;
  if (!ip || ip === LOOPBACK_POD_IP) return false;
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed';
}

export function podsOfService(svc: V1Service, pods: V1Pod[]): V1Pod[] {
  const ns = svc.metadata?.namespace;
  return pods.filter((p) => p.metadata?.namespace === ns && selects(svc.spec?.selector, p.metadata?.labels) && canBeEndpoint(p));
}

/** kube's FindPort: a number as it is; a name looked up among the Pod's container ports of that protocol */
export function resolveTargetPort(pod: V1Pod, port: V1ServicePort): number | undefined {
  const target = port.targetPort ?? port.port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  const protocol = port.protocol ?? 'TCP';
  for (const c of pod.spec?.containers ?? []) {
    const found = c.ports?.find((p) => p.name === target && (p.protocol ?? 'TCP') === protocol);
    if (found) return found.containerPort;
  }
  return undefined;
}
