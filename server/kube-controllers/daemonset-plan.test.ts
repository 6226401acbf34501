import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { daemonPodNode, renderDaemonPod, shouldRunOn } from './daemonset-pods';
import { planDaemonSet } from './daemonset-plan';
import type { DaemonSet } from './resources';

const node = (name: string, extra: { labels?: Record<string, string>; taints?: V1Node['spec'] extends infer S ? S extends { taints?: infer T } ? T : never : never; unschedulable?: boolean } = {}): V1Node => ({
  metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(extra.labels ?? {}) } },
  spec: { taints: extra.taints, unschedulable: extra.unschedulable },
});

const ds = (spec: Partial<NonNullable<DaemonSet['spec']>['template']['spec']> = {}, strategy?: NonNullable<DaemonSet['spec']>['updateStrategy']): DaemonSet => ({
  metadata: { name: 'agent', namespace: 'default', uid: 'u1', generation: 1 },
  spec: {
    selector: { matchLabels: { app: 'agent' } },
    template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'c', image: 'i:1' }], ...spec } },
    updateStrategy: strategy ?? { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
  },
});

const readyPod = (set: DaemonSet, nodeName: string, hash: string, ready = true): V1Pod => {
  const p = renderDaemonPod(set, nodeName, hash);
  p.metadata!.name = `agent-${nodeName}`;
  p.metadata!.uid = `uid-${nodeName}`;
  p.spec!.nodeName = nodeName;
  p.status = { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] };
  return p;
};

describe('DaemonSet node eligibility', () => {
  it('honours nodeSelector', () => {
    const set = ds({ nodeSelector: { disk: 'ssd' } });
    expect(shouldRunOn(set, node('a', { labels: { disk: 'ssd' } }))).toBe(true);
    expect(shouldRunOn(set, node('b'))).toBe(false);
  });

  it('skips a Node with a NoSchedule taint the template does not tolerate, runs where it does', () => {
    const tainted = node('a', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] });
    expect(shouldRunOn(ds(), tainted)).toBe(false);
    expect(shouldRunOn(ds({ tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }] }), tainted)).toBe(true);
  });

  it('runs on cordoned and not-ready Nodes: kube’s default daemon tolerations', () => {
    expect(shouldRunOn(ds(), node('a', { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }] }))).toBe(true);
  });

  it('pins the Pod with a required matchFields metadata.name term (kept for each existing term)', () => {
    const set = ds({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['z1'] }] }] } } } });
    const pod = renderDaemonPod(set, 'node-2', 'h1');
    expect(pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: 'zone', operator: 'In', values: ['z1'] }], matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-2'] }] },
    ]);
    expect(daemonPodNode(pod)).toBe('node-2');
    expect(pod.metadata?.labels).toMatchObject({ app: 'agent', 'controller-revision-hash': 'h1' });
    expect(pod.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'DaemonSet', name: 'agent', controller: true });
  });
});

describe('DaemonSet plan and status', () => {
  it('creates a Pod for each eligible Node without one and counts status like kube', () => {
    const set = ds({ nodeSelector: { role: 'worker' } });
    const nodes = [node('a', { labels: { role: 'worker' } }), node('b', { labels: { role: 'worker' } }), node('c')];
    const plan = planDaemonSet(set, nodes, [readyPod(set, 'a', 'h1'), readyPod(set, 'c', 'h1')], 'h1', Date.now());
    expect(plan.create).toEqual(['b']);
    expect(plan.remove.map((p) => p.metadata?.name)).toEqual(['agent-c']);
    expect(plan.status).toMatchObject({ desiredNumberScheduled: 2, currentNumberScheduled: 1, numberMisscheduled: 1, numberReady: 1, updatedNumberScheduled: 1, numberAvailable: 1, numberUnavailable: 1 });
  });

  it('RollingUpdate replaces old-template Pods no more than maxUnavailable at a time', () => {
    const set = ds();
    const nodes = ['a', 'b', 'c'].map((n) => node(n));
    const old = nodes.map((n) => readyPod(set, n.metadata!.name!, 'old'));
    expect(planDaemonSet(set, nodes, old, 'new', Date.now()).remove).toHaveLength(1);
    // one Node already has no available Pod: nothing more may go
    const oneDown = [readyPod(set, 'a', 'old', false), readyPod(set, 'b', 'old'), readyPod(set, 'c', 'old')];
    expect(planDaemonSet(set, nodes, oneDown, 'new', Date.now()).remove.map((p) => p.metadata?.name)).toEqual(['agent-a']);
  });

  it('OnDelete leaves old-template Pods alone', () => {
    const set = ds({}, { type: 'OnDelete' });
    const nodes = [node('a')];
    expect(planDaemonSet(set, nodes, [readyPod(set, 'a', 'old')], 'new', Date.now()).remove).toEqual([]);
  });
});
