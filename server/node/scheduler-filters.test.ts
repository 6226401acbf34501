import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { filterNode, formatUnschedulableMessage, type NodeInfo } from './scheduler-filters';
import { pickNode } from './scheduler-score';
import {
  cordoned, inPhase, makeNode, makePod, notReady, onNode, withAllocatable, withNodeLabels, withPodLabels, withPodSpec, withRequests, withTaint,
} from './testing-builders';

const info = (node: V1Node, pods: V1Pod[] = []): NodeInfo => ({ node, pods });
const reasonsFor = (pod: V1Pod, node: V1Node, pods: V1Pod[] = []) => filterNode(pod, info(node, pods), [info(node, pods)]).reasons;

const nodeAffinity = (...terms: object[]) => withPodSpec({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms as never } } } });

describe('filterNode', () => {
  it.each<[string, V1Pod, V1Node, string[]]>([
    ['a plain pod fits a ready node', makePod('p'), makeNode('n1'), []],
    ['cordoned node', makePod('p'), makeNode('n1', cordoned), ['node(s) were unschedulable']],
    ['cordoned node, pod tolerates unschedulable', makePod('p', withPodSpec({ tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }] })), makeNode('n1', cordoned), []],
    ['not-ready node', makePod('p'), makeNode('n1', notReady), ['node(s) had untolerated taint {node.kubernetes.io/not-ready: }']],
    ['NoSchedule taint', makePod('p'), makeNode('n1', withTaint('dedicated', 'gpu', 'NoSchedule')), ['node(s) had untolerated taint {dedicated: gpu}']],
    ['PreferNoSchedule taint does not block', makePod('p'), makeNode('n1', withTaint('dedicated', 'gpu', 'PreferNoSchedule')), []],
    ['taint tolerated with Equal', makePod('p', withPodSpec({ tolerations: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] })), makeNode('n1', withTaint('dedicated', 'gpu', 'NoSchedule')), []],
    ['toleration with another value', makePod('p', withPodSpec({ tolerations: [{ key: 'dedicated', value: 'cpu' }] })), makeNode('n1', withTaint('dedicated', 'gpu', 'NoExecute')), ['node(s) had untolerated taint {dedicated: gpu}']],
    ['empty-key Exists tolerates all', makePod('p', withPodSpec({ tolerations: [{ operator: 'Exists' }] })), makeNode('n1', withTaint('a', 'b', 'NoSchedule'), notReady), []],
    ['spec.nodeName for another node', makePod('p', withPodSpec({ nodeName: 'n2' })), makeNode('n1'), ["node(s) didn't match the requested node name"]],
    ['nodeSelector matches', makePod('p', withPodSpec({ nodeSelector: { zone: 'a' } })), makeNode('n1', withNodeLabels({ zone: 'a' })), []],
    ['nodeSelector misses', makePod('p', withPodSpec({ nodeSelector: { zone: 'a' } })), makeNode('n1'), ["node(s) didn't match Pod's node affinity/selector"]],
    ['affinity In', makePod('p', nodeAffinity({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a', 'b'] }] })), makeNode('n1', withNodeLabels({ zone: 'b' })), []],
    ['affinity NotIn', makePod('p', nodeAffinity({ matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['b'] }] })), makeNode('n1', withNodeLabels({ zone: 'b' })), ["node(s) didn't match Pod's node affinity/selector"]],
    ['affinity Exists', makePod('p', nodeAffinity({ matchExpressions: [{ key: 'gpu', operator: 'Exists' }] })), makeNode('n1'), ["node(s) didn't match Pod's node affinity/selector"]],
    ['affinity DoesNotExist', makePod('p', nodeAffinity({ matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] })), makeNode('n1'), []],
    ['affinity Gt', makePod('p', nodeAffinity({ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['8'] }] })), makeNode('n1', withNodeLabels({ cores: '16' })), []],
    ['affinity Lt fails', makePod('p', nodeAffinity({ matchExpressions: [{ key: 'cores', operator: 'Lt', values: ['8'] }] })), makeNode('n1', withNodeLabels({ cores: '16' })), ["node(s) didn't match Pod's node affinity/selector"]],
    ['affinity terms are ORed', makePod('p', nodeAffinity({ matchExpressions: [{ key: 'x', operator: 'Exists' }] }, { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] })), makeNode('n1'), []],
    ['matchFields metadata.name NotIn', makePod('p', nodeAffinity({ matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['n1'] }] })), makeNode('n1'), ["node(s) didn't match Pod's node affinity/selector"]],
    ['insufficient memory', makePod('p', withRequests({ memory: '9Gi' })), makeNode('n1'), ['Insufficient memory']],
    ['insufficient cpu and memory', makePod('p', withRequests({ memory: '9Gi', cpu: '5' })), makeNode('n1'), ['Insufficient cpu', 'Insufficient memory']],
    ['unadvertised extended resource', makePod('p', withRequests({ 'devices.kubevirt.io/kvm': '1' })), makeNode('n1'), ['Insufficient devices.kubevirt.io/kvm']],
    ['advertised extended resource', makePod('p', withRequests({ 'devices.kubevirt.io/kvm': '1' })), makeNode('n1', withAllocatable({ 'devices.kubevirt.io/kvm': '1k' })), []],
    ['pod count full', makePod('p'), makeNode('n1', withAllocatable({ pods: '0' })), ['Too many pods']],
  ])('%s', (_label, pod, node, reasons) => {
    expect(reasonsFor(pod, node)).toEqual(reasons);
  });

  it.each([
    ['running pods count against allocatable', 'Running', ['Insufficient memory']],
    ['finished pods do not', 'Succeeded', []],
  ])('%s', (_l, phase, reasons) => {
    const existing = makePod('old', onNode('n1'), inPhase(phase), withRequests({ memory: '6Gi' }));
    expect(reasonsFor(makePod('p', withRequests({ memory: '3Gi' })), makeNode('n1'), [existing])).toEqual(reasons);
  });

  it('limits stand in for missing requests', () => {
    const pod = makePod('p', withPodSpec({ containers: [{ name: 'c', resources: { limits: { memory: '10Gi' } } }] }));
    expect(reasonsFor(pod, makeNode('n1'))).toEqual(['Insufficient memory']);
  });

  const antiAffinity = (app: string) =>
    withPodSpec({ affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app } } }] } } });

  it.each<[string, V1Pod, V1Pod, string[]]>([
    ['anti-affinity against a matching pod on the node', makePod('p', antiAffinity('db')), makePod('q', withPodLabels({ app: 'db' })), ["node(s) didn't match pod anti-affinity rules"]],
    ['anti-affinity with no matching pod', makePod('p', antiAffinity('db')), makePod('q', withPodLabels({ app: 'web' })), []],
    ['an existing pod\'s anti-affinity repels the new pod', makePod('p', withPodLabels({ app: 'db' })), makePod('q', antiAffinity('db')), ["node(s) didn't satisfy existing pods anti-affinity rules"]],
  ])('%s', (_l, pod, existing, reasons) => {
    const n1 = makeNode('n1');
    existing.spec!.nodeName = 'n1';
    expect(reasonsFor(pod, n1, [existing])).toEqual(reasons);
  });

  it('anti-affinity by hostname only looks at the same node', () => {
    const n1 = makeNode('n1');
    const n2 = makeNode('n2');
    const all = [info(n1, [makePod('q', onNode('n1'), withPodLabels({ app: 'db' }))]), info(n2)];
    const pod = makePod('p', antiAffinity('db'));
    expect(all.map((i) => filterNode(pod, i, all).reasons.length)).toEqual([1, 0]);
  });
});

describe('formatUnschedulableMessage', () => {
  it.each([
    [[['Insufficient memory'], ['Insufficient memory']], '0/2 nodes are available: 2 Insufficient memory.'],
    [[['node(s) were unschedulable'], ['Insufficient memory', 'Insufficient cpu']], '0/2 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 node(s) were unschedulable.'],
    [[], 'no nodes available to schedule pods'],
  ])('%j → %s', (reasons, message) => {
    expect(formatUnschedulableMessage(reasons.map((r, i) => ({ node: `n${i}`, reasons: r, used: {} })))).toBe(message);
  });
});

describe('pickNode', () => {
  it('prefers the node with the most free cpu and memory', () => {
    const pod = makePod('p', withRequests({ memory: '1Gi' }));
    const busy = info(makeNode('a'), [makePod('x', onNode('a'), withRequests({ memory: '4Gi' }))]);
    const idle = info(makeNode('b'));
    const feasible = [busy, idle].map((i) => ({ info: i, fit: filterNode(pod, i, [busy, idle]) }));
    expect(pickNode(pod, feasible)).toBe('b');
  });

  it('breaks ties by name', () => {
    const pod = makePod('p');
    const nodes = [info(makeNode('n2')), info(makeNode('n1'))];
    expect(pickNode(pod, nodes.map((i) => ({ info: i, fit: filterNode(pod, i, nodes) })))).toBe('n1');
  });
});
