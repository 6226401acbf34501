import type { V1Node, V1Pod } from '@kubernetes/client-node';

/** Fixture builders for scheduler/kubelet tests: `makeNode('n1', withMemory('4Gi'))`. */
type Mod<T> = (o: T) => void;

export function makeNode(name: string, ...mods: Mod<V1Node>[]): V1Node {
  const node: V1Node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    spec: {},
    status: {
      allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  };
  mods.forEach((m) => m(node));
  return node;
}

export const withAllocatable = (alloc: Record<string, string>): Mod<V1Node> => (n) => void Object.assign(n.status!.allocatable!, alloc);
export const withNodeLabels = (labels: Record<string, string>): Mod<V1Node> => (n) => void Object.assign(n.metadata!.labels!, labels);
export const withTaint = (key: string, value: string | undefined, effect: string): Mod<V1Node> => (n) => void (n.spec!.taints = [...(n.spec!.taints ?? []), { key, value, effect }]);
export const cordoned: Mod<V1Node> = (n) => void (n.spec!.unschedulable = true);
export const notReady: Mod<V1Node> = (n) => void (n.status!.conditions = [{ type: 'Ready', status: 'False' }]);

export function makePod(name: string, ...mods: Mod<V1Pod>[]): V1Pod {
  const pod: V1Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-${name}`, labels: {} },
    spec: { containers: [{ name: 'c', image: 'x', resources: { requests: {} } }] },
    status: { phase: 'Pending' },
  };
  mods.forEach((m) => m(pod));
  return pod;
}

export const withRequests = (req: Record<string, string>): Mod<V1Pod> => (p) => void Object.assign(p.spec!.containers[0].resources!.requests!, req);
export const withPodLabels = (labels: Record<string, string>): Mod<V1Pod> => (p) => void Object.assign(p.metadata!.labels!, labels);
export const onNode = (nodeName: string): Mod<V1Pod> => (p) => void (p.spec!.nodeName = nodeName);
export const inPhase = (phase: string): Mod<V1Pod> => (p) => void (p.status!.phase = phase);
export const withPodSpec = (spec: Partial<V1Pod['spec']>): Mod<V1Pod> => (p) => void Object.assign(p.spec!, spec);
