import type { V1Node, V1NodeCondition } from '@kubernetes/client-node';
import { formatKubeTime } from '../kube/time';
import { pressureConditions, type Pressure } from './node-pressure';

export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
export const LABEL_OS = 'kubernetes.io/os';
export const LABEL_ARCH = 'kubernetes.io/arch';
export const LABEL_SCHEDULABLE = 'kubevirt.io/schedulable';
/** Our label: which accelerator guests on this node get (`kvm` or `tcg`), from the node's KVM probe. */
export const LABEL_ACCELERATOR = 'kubevirt.io/accelerator';
/** KubeVirt's device-plugin resources; `kvm` is advertised only when the probe shows KVM really works. */
/** KubeVirt's node label for the kubelet's static CPU manager policy (dedicatedCpuPlacement selects it). */
export const LABEL_CPU_MANAGER = 'cpumanager';
export const RESOURCE_KVM = 'devices.kubevirt.io/kvm';
export const RESOURCE_TUN = 'devices.kubevirt.io/tun';
export const RESOURCE_VHOST_NET = 'devices.kubevirt.io/vhost-net';
const DEVICE_COUNT = '1k';
export const MAX_PODS = 110;
export const KUBELET_VERSION = 'v1.31.0-kv';

export interface MachineFacts {
  cpus: number;
  memoryBytes: number;
  diskBytes?: number;
  kernelVersion: string;
  osImage: string;
  machineID: string;
  bootID: string;
  architecture: string;
}

export interface NodeFacts {
  name: string;
  nodesTotal: number;
  machine: MachineFacts;
  /** Undefined while no probe has run. */
  kvmUsable?: boolean;
  /** The node's pod range when the pod network runs (Node.spec.podCIDR). */
  podCIDR?: string;
  /** Eviction thresholds crossed now (node-pressure.ts); none when undefined. */
  pressure?: Pressure;
  /** Why pods share the host's network instead (not root, tools missing, turned off); undefined with a pod network. */
  noPodNetwork?: string;
  /** The port of the kubelet's own API (container logs); 0 while it does not listen. */
  kubeletPort?: number;
  /** The static CPU manager is on (Node label cpumanager=true, as KubeVirt expects for dedicated CPUs). */
  cpuManager?: boolean;
  /** The host's hugepages in bytes by resource (`hugepages-2Mi`), machine-wide; none when undefined. */
  hugepages?: Record<string, number>;
}

const PAGE_BYTES: Record<string, number> = { 'hugepages-2Mi': 2 * 2 ** 20, 'hugepages-1Gi': 2 ** 30 };

/** This node's share of the host's hugepages (whole pages, divided among the local nodes). */
function hugepagesShare(facts: NodeFacts): Record<string, number> {
  const n = Math.max(1, facts.nodesTotal);
  const out: Record<string, number> = {};
  for (const [name, bytes] of Object.entries(facts.hugepages ?? {})) {
    const page = PAGE_BYTES[name] ?? 1;
    out[name] = Math.floor(bytes / page / n) * page;
  }
  return out;
}

/** This node's CPU in millicores: the machine's CPUs divided among the local nodes (at least 100m). */
export function nodeCpuMillis(machineCpus: number, nodesTotal: number): number {
  return Math.max(100, Math.floor((machineCpus * 1000) / Math.max(1, nodesTotal)));
}

/** This node's share of the machine: cpu in millicores and memory in Ki, divided among the local nodes. */
export function computeCapacity(facts: NodeFacts): Record<string, string> {
  const n = Math.max(1, facts.nodesTotal);
  const cap: Record<string, string> = {
    cpu: `${nodeCpuMillis(facts.machine.cpus, n)}m`,
    memory: `${Math.floor(facts.machine.memoryBytes / n / 1024)}Ki`,
    pods: String(MAX_PODS),
    [RESOURCE_TUN]: DEVICE_COUNT,
    [RESOURCE_VHOST_NET]: DEVICE_COUNT,
  };
  if (facts.machine.diskBytes) cap['ephemeral-storage'] = `${Math.floor(facts.machine.diskBytes / n / 1024)}Ki`;
  if (facts.kvmUsable) cap[RESOURCE_KVM] = DEVICE_COUNT;
  for (const [name, bytes] of Object.entries(hugepagesShare(facts))) cap[name] = `${bytes / 1024}Ki`;
  return cap;
}

/** kube's allocatable: the capacity, less the memory the hugepages hold (it is not there for ordinary pods). */
export function computeAllocatable(facts: NodeFacts, capacity = computeCapacity(facts)): Record<string, string> {
  const huge = Object.values(hugepagesShare(facts)).reduce((a, b) => a + b, 0);
  const memoryKi = Math.max(0, Math.floor(facts.machine.memoryBytes / Math.max(1, facts.nodesTotal) / 1024) - huge / 1024);
  return { ...capacity, memory: `${memoryKi}Ki` };
}

export function acceleratorOf(kvmUsable?: boolean): string {
  return kvmUsable ? 'kvm' : 'tcg';
}

/** kube's NetworkUnavailable condition: False once the node's pod network is set up. */
export function networkCondition(facts: Pick<NodeFacts, 'podCIDR' | 'noPodNetwork'>): { status: string; reason: string; message: string } {
  if (facts.podCIDR) return { status: 'False', reason: 'PodNetworkReady', message: `pods get addresses from ${facts.podCIDR} on the node's bridge` };
  return { status: 'True', reason: 'NoPodNetwork', message: `pods share the host's network: ${facts.noPodNetwork ?? 'the pod network is off'}` };
}

function nodeConditions(now: string, facts: NodeFacts): V1NodeCondition[] {
  const pressure = facts.pressure ?? { memory: false, disk: false };
  const c = (type: string, status: string, reason: string, message: string) =>
    ({ type, status, reason, message, lastHeartbeatTime: now, lastTransitionTime: now }) as unknown as V1NodeCondition;
  const net = networkCondition(facts);
  return [
    c('NetworkUnavailable', net.status, net.reason, net.message),
    ...pressureConditions(pressure).map((x) => c(x.type, x.status, x.reason!, x.message!)),
    c('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
    c('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
  ];
}

/** The Node this kubelet registers; status is refreshed by heartbeats (see node-status.ts). */
export function renderNode(facts: NodeFacts, now = new Date()): V1Node {
  const capacity = computeCapacity(facts);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: facts.name,
      labels: {
        [LABEL_HOSTNAME]: facts.name,
        [LABEL_OS]: 'linux',
        [LABEL_ARCH]: facts.machine.architecture,
        [LABEL_SCHEDULABLE]: 'true',
        [LABEL_ACCELERATOR]: acceleratorOf(facts.kvmUsable),
        [LABEL_CPU_MANAGER]: String(Boolean(facts.cpuManager)),
      },
    },
    spec: facts.podCIDR ? { podCIDR: facts.podCIDR, podCIDRs: [facts.podCIDR] } : {},
    status: renderNodeStatus(facts, now, capacity),
  };
}

export function renderNodeStatus(facts: NodeFacts, now = new Date(), capacity = computeCapacity(facts)): NonNullable<V1Node['status']> {
  const m = facts.machine;
  return {
    capacity,
    allocatable: computeAllocatable(facts, capacity),
    conditions: nodeConditions(formatKubeTime(now), facts),
    addresses: [
      { type: 'InternalIP', address: '127.0.0.1' },
      { type: 'Hostname', address: facts.name },
    ],
    nodeInfo: {
      machineID: m.machineID,
      systemUUID: m.machineID,
      bootID: m.bootID,
      kernelVersion: m.kernelVersion,
      osImage: m.osImage,
      containerRuntimeVersion: 'process://kv',
      kubeletVersion: KUBELET_VERSION,
      kubeProxyVersion: '',
      operatingSystem: 'linux',
      architecture: m.architecture,
    },
    daemonEndpoints: { kubeletEndpoint: { Port: facts.kubeletPort ?? 0 } },
  };
}
