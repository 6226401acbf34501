import { describe, expect, it } from 'vitest';
import { computeCapacity, renderNode, RESOURCE_KVM, type NodeFacts } from './node-object';

const facts = (over: Partial<NodeFacts> = {}): NodeFacts => ({
  name: 'node-1',
  nodesTotal: 1,
  machine: { cpus: 2, memoryBytes: 8 * 2 ** 30, diskBytes: 100 * 2 ** 30, kernelVersion: '6.1', osImage: 'Debian', machineID: 'm', bootID: 'b', architecture: 'amd64' },
  ...over,
});

describe('computeCapacity', () => {
  it.each([
    [1, '2000m', '8388608Ki'],
    [2, '1000m', '4194304Ki'],
    [3, '666m', '2796202Ki'],
  ])('divides the machine among %i local node(s)', (nodesTotal, cpu, memory) => {
    expect(computeCapacity(facts({ nodesTotal }))).toMatchObject({ cpu, memory, pods: '110' });
  });

  it.each([
    [true, '1k'],
    [false, undefined],
    [undefined, undefined],
  ])('advertises devices.kubevirt.io/kvm only when the probe proved KVM (probe=%s)', (kvmUsable, kvm) => {
    expect(computeCapacity(facts({ kvmUsable }))[RESOURCE_KVM]).toBe(kvm);
  });
});

describe('hugepages', () => {
  const hugepages = { 'hugepages-2Mi': 512 * 2 ** 20, 'hugepages-1Gi': 0 };

  it('reports the host\'s hugepages as capacity and allocatable, and takes them out of allocatable memory', () => {
    const status = renderNode(facts({ hugepages })).status!;
    expect(status.capacity).toMatchObject({ 'hugepages-2Mi': '524288Ki', 'hugepages-1Gi': '0Ki', memory: '8388608Ki' });
    expect(status.allocatable).toMatchObject({ 'hugepages-2Mi': '524288Ki', 'hugepages-1Gi': '0Ki', memory: `${8388608 - 524288}Ki` });
  });

  it('gives each local node whole pages of its share', () => {
    // 257 pages among 2 nodes: 128 each (an odd page is nobody's)
    expect(computeCapacity(facts({ nodesTotal: 2, hugepages: { 'hugepages-2Mi': 257 * 2 * 2 ** 20 } }))['hugepages-2Mi']).toBe(`${128 * 2048}Ki`);
  });

  it('advertises no hugepages resource when none was read', () => {
    expect(computeCapacity(facts())['hugepages-2Mi']).toBeUndefined();
  });
});

describe('renderNode', () => {
  it('registers a Ready, schedulable node reachable on loopback', () => {
    const node = renderNode(facts({ kvmUsable: false }));
    expect(node.metadata?.labels).toMatchObject({ 'kubernetes.io/hostname': 'node-1', 'kubevirt.io/schedulable': 'true', 'kubevirt.io/accelerator': 'tcg' });
    expect(node.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(node.status?.addresses).toContainEqual({ type: 'InternalIP', address: '127.0.0.1' });
    expect(node.status?.allocatable).toEqual(node.status?.capacity);
  });
});

describe('NetworkUnavailable', () => {
  const cond = (over: Partial<NodeFacts>) => renderNode(facts(over)).status?.conditions?.find((c) => c.type === 'NetworkUnavailable');

  it('is False with the pod range once the pod network runs', () => {
    expect(cond({ podCIDR: '10.244.1.0/24' })).toMatchObject({ status: 'False', reason: 'PodNetworkReady', message: "pods get addresses from 10.244.1.0/24 on the node's bridge" });
  });

  it('is True and says why pods share the host network otherwise', () => {
    expect(cond({ noPodNetwork: 'the kubelet is not root, so it cannot create network namespaces' })).toMatchObject({
      status: 'True', reason: 'NoPodNetwork', message: "pods share the host's network: the kubelet is not root, so it cannot create network namespaces",
    });
  });
});
