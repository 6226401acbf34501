import { describe, expect, it } from 'vitest';
import { computeNodeUsage } from './node-usage';

describe('computeNodeUsage', () => {
  it('sums the requests of live pods on the node only', () => {
    const node = { metadata: { name: 'node-1' }, status: { allocatable: { cpu: '4', memory: '8Gi' } } };
    const pod = (nodeName: string, cpu: string, memory: string, phase = 'Running') => ({ spec: { nodeName, containers: [{ resources: { requests: { cpu, memory } } }] }, status: { phase } });
    const u = computeNodeUsage(node, [pod('node-1', '500m', '512Mi'), pod('node-1', '1', '1Gi'), pod('node-2', '2', '2Gi'), pod('node-1', '1', '1Gi', 'Succeeded')]);
    expect(u).toEqual({ cpuCapacity: 4, memoryCapacity: 8 * 2 ** 30, cpuRequested: 1.5, memoryRequested: 1.5 * 2 ** 30, pods: 2 });
  });
});
