/**
 * kube-apiserver's Service defaults (SetDefaults_Service plus what its REST layer fills in), and
 * the values an update inherits from the stored Service when the body leaves them out
 * (patchAllocatedValues: `kubectl apply` of a manifest without clusterIP or nodePort).
 */
import { asRecord } from '../storage-kinds/field-errors';
import { clusterIPsOf, serviceSpec, servicePorts, usesClusterIP, usesNodePorts, type ServicePort } from './service-fields';

type Obj = Record<string, unknown>;

const DEFAULT_AFFINITY_TIMEOUT = 10800;

function defaultPort(p: ServicePort): void {
  p.protocol ||= 'TCP';
  if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
}

/** clusterIP and clusterIPs[0] say the same thing: fill whichever is missing from the other */
function syncClusterIPs(spec: Obj): void {
  const ips = clusterIPsOf(spec);
  if (!ips.length) return;
  if (!spec.clusterIP) spec.clusterIP = ips[0];
  if (!Array.isArray(spec.clusterIPs) || !spec.clusterIPs.length) spec.clusterIPs = [spec.clusterIP];
}

export function defaultService(svc: Obj): void {
  const spec = serviceSpec(svc);
  spec.type ||= 'ClusterIP';
  spec.sessionAffinity ||= 'None';
  if (spec.sessionAffinity === 'ClientIP') {
    const cfg = asRecord(spec.sessionAffinityConfig);
    const clientIP = asRecord(cfg.clientIP);
    clientIP.timeoutSeconds ??= DEFAULT_AFFINITY_TIMEOUT;
    spec.sessionAffinityConfig = { ...cfg, clientIP };
  }
  servicePorts(spec).forEach(defaultPort);
  if (Array.isArray(spec.ports)) spec.ports = servicePorts(spec);
  syncClusterIPs(spec);
  if (!usesClusterIP(spec)) return;
  spec.internalTrafficPolicy ||= 'Cluster';
  spec.ipFamilies ??= ['IPv4'];
  spec.ipFamilyPolicy ??= 'SingleStack';
  if (usesNodePorts(spec)) spec.externalTrafficPolicy ||= 'Cluster';
  if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
}

/** an update that omits the cluster IP or a port's nodePort keeps the stored one */
export function inheritAllocated(svc: Obj, old: Obj): void {
  const spec = serviceSpec(svc);
  const oldSpec = asRecord(old.spec);
  const sameFamily = usesClusterIP(spec) && usesClusterIP(oldSpec);
  if (sameFamily && !clusterIPsOf(spec).length && clusterIPsOf(oldSpec).length) {
    spec.clusterIP = oldSpec.clusterIP;
    spec.clusterIPs = oldSpec.clusterIPs;
  }
  if (!usesClusterIP(spec) && clusterIPsOf(spec).join() === clusterIPsOf(oldSpec).join()) {
    delete spec.clusterIP;
    delete spec.clusterIPs;
  }
  inheritNodePorts(spec, oldSpec);
}

function inheritNodePorts(spec: Obj, oldSpec: Obj): void {
  const oldPorts = servicePorts(oldSpec);
  const find = (p: ServicePort) => oldPorts.find((o) => o.port === p.port && (o.protocol ?? 'TCP') === (p.protocol ?? 'TCP'));
  for (const p of servicePorts(spec)) {
    const prior = find(p);
    if (usesNodePorts(spec) && usesNodePorts(oldSpec) && !p.nodePort && prior?.nodePort) p.nodePort = prior.nodePort;
    if (!usesNodePorts(spec) && p.nodePort && p.nodePort === prior?.nodePort) delete p.nodePort;
  }
}
