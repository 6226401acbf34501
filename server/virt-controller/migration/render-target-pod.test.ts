import { describe, expect, it } from 'vitest';
import { newVMI } from '../vmi/testing-builders';
import { renderLauncherPod } from '../vmi/render-launcher-pod';
import { renderTargetPod } from './render-target-pod';
import { newVMIM } from './testing-builders';

describe('renderTargetPod', () => {
  const vmi = newVMI((v) => { v.spec.nodeSelector = { disk: 'ssd' }; });

  it('is the VMI launcher Pod plus the migration label and annotation', () => {
    const pod = renderTargetPod(vmi, newVMIM());
    const plain = renderLauncherPod(vmi);
    expect(pod.spec!.containers).toEqual(plain.spec!.containers);
    expect(pod.metadata!.ownerReferences).toEqual(plain.metadata!.ownerReferences);
    expect(pod.metadata!.labels).toMatchObject({ ...plain.metadata!.labels, 'kubevirt.io/migrationJobUID': 'mig-uid' });
    expect(pod.metadata!.annotations).toMatchObject({ 'kubevirt.io/migrationJobName': 'mig' });
  });

  it('does not carry the VMI\'s node labels', () => {
    const labelled = newVMI((v) => { v.metadata.labels = { app: 'x', 'kubevirt.io/nodeName': 'node-1', 'kubevirt.io/migrationTargetNodeName': 'node-2' }; });
    const labels = renderTargetPod(labelled, newVMIM()).metadata!.labels!;
    expect(labels.app).toBe('x');
    expect(labels).not.toHaveProperty('kubevirt.io/nodeName');
    expect(labels).not.toHaveProperty('kubevirt.io/migrationTargetNodeName');
  });

  it('keeps off every node that already runs a Pod of the VMI', () => {
    const pod = renderTargetPod(vmi, newVMIM());
    expect(pod.spec!.affinity!.podAntiAffinity!.requiredDuringSchedulingIgnoredDuringExecution).toEqual([{
      labelSelector: { matchExpressions: [{ key: 'kubevirt.io/created-by', operator: 'In', values: ['vmi-uid'] }] },
      topologyKey: 'kubernetes.io/hostname',
    }]);
  });

  it.each([
    ['adds the request selector', { zone: 'b' }, { zone: 'b', disk: 'ssd', 'kubevirt.io/schedulable': 'true' }],
    ['lets the VMI keys win', { disk: 'hdd', 'kubevirt.io/schedulable': 'false' }, { disk: 'ssd', 'kubevirt.io/schedulable': 'true' }],
    ['needs no request selector', undefined, { disk: 'ssd', 'kubevirt.io/schedulable': 'true' }],
  ])('%s', (_n, added, want) => {
    const pod = renderTargetPod(vmi, newVMIM((m) => { m.spec.addedNodeSelector = added; }));
    expect(pod.spec!.nodeSelector).toEqual(want);
  });
});
