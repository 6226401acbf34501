import { describe, expect, it } from 'vitest';
import { applyPatch, type Operation } from 'fast-json-patch';
import { labelNodeIfNeeded, metadataPatch, statusNeedsWrite, type VMIClient } from './write-vmi';
import { newVMI } from './testing-builders';

const apply = (vmi: ReturnType<typeof newVMI>, want: Parameters<typeof metadataPatch>[1]) =>
  applyPatch(structuredClone(vmi), metadataPatch(vmi, want) as Operation[], true).newDocument;

describe('metadataPatch', () => {
  it('adds the finalizer to a VMI that has none', () => {
    expect(apply(newVMI(), { finalizer: true }).metadata.finalizers).toEqual(['kubevirt.io/foregroundDeleteVirtualMachine']);
  });

  it('removes only our finalizer', () => {
    const vmi = newVMI((v) => { v.metadata.finalizers = ['kubevirt.io/foregroundDeleteVirtualMachine', 'other/keep']; });
    expect(apply(vmi, { finalizer: false }).metadata.finalizers).toEqual(['other/keep']);
  });

  it('labels the VMI with its node', () => {
    const vmi = newVMI((v) => { v.metadata.labels = { app: 'x' }; v.metadata.finalizers = ['kubevirt.io/foregroundDeleteVirtualMachine']; });
    expect(apply(vmi, { nodeName: 'node-1', finalizer: true }).metadata.labels).toEqual({ app: 'x', 'kubevirt.io/nodeName': 'node-1' });
  });

  it('writes nothing when metadata is already right', () => {
    const vmi = newVMI((v) => { v.metadata.labels = { 'kubevirt.io/nodeName': 'n' }; v.metadata.finalizers = ['kubevirt.io/foregroundDeleteVirtualMachine']; });
    expect(metadataPatch(vmi, { nodeName: 'n', finalizer: true })).toEqual([]);
  });

  it('guards a finalizer change with the list it was computed from', () => {
    const vmi = newVMI((v) => { v.metadata.finalizers = ['kubevirt.io/foregroundDeleteVirtualMachine']; });
    const ops = metadataPatch(vmi, { finalizer: false });
    expect(ops[0]).toEqual({ op: 'test', path: '/metadata/finalizers', value: ['kubevirt.io/foregroundDeleteVirtualMachine'] });
    const raced = structuredClone(vmi);
    raced.metadata.finalizers = ['other/new', 'kubevirt.io/foregroundDeleteVirtualMachine'];
    expect(() => applyPatch(raced, ops as Operation[], true)).toThrow();
  });

  it('still applies after an unrelated write changed the resourceVersion', () => {
    const vmi = newVMI((v) => { v.metadata.finalizers = []; });
    const later = { ...structuredClone(vmi), metadata: { ...vmi.metadata, resourceVersion: '99' } };
    expect(applyPatch(later, metadataPatch(vmi, { finalizer: true }) as Operation[], true).newDocument.metadata.finalizers).toEqual(['kubevirt.io/foregroundDeleteVirtualMachine']);
  });
});

describe('statusNeedsWrite', () => {
  const ready = { type: 'Ready', status: 'False' as const, reason: 'GuestNotRunning', message: 'Guest VM is not reported as running' };
  const scheduling = { phase: 'Scheduling' as const, conditions: [ready] };

  it('keeps what the Pod says while the VMI waits in Scheduling for the next write that matters', () => {
    expect(statusNeedsWrite(scheduling, { ...scheduling, activePods: { uid1: 'node-1' }, qosClass: 'Burstable' })).toBe(false);
  });

  it('writes a phase change, a condition change, or any change outside Scheduling', () => {
    expect(statusNeedsWrite(scheduling, { ...scheduling, phase: 'Scheduled', nodeName: 'node-1', activePods: { uid1: 'node-1' } })).toBe(true);
    expect(statusNeedsWrite(scheduling, { ...scheduling, activePods: { uid1: 'node-1' }, conditions: [ready, { type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] })).toBe(true);
    expect(statusNeedsWrite({ phase: 'Running' }, { phase: 'Running', activePods: { uid1: 'node-1', uid2: 'node-2' } })).toBe(true);
    expect(statusNeedsWrite({}, { phase: 'Pending' })).toBe(true);
    expect(statusNeedsWrite(scheduling, structuredClone(scheduling))).toBe(false);
  });
});

describe('labelNodeIfNeeded', () => {
  const client = (onPatch: (ops: unknown[]) => unknown): VMIClient & { patches: unknown[][] } => {
    const patches: unknown[][] = [];
    return {
      patches,
      replaceStatus: () => Promise.reject(new Error('not used')),
      jsonPatch: async (_ns: string, _name: string, ops: unknown[]) => { patches.push(ops); return onPatch(ops); },
    } as unknown as VMIClient & { patches: unknown[][] };
  };
  const cached = newVMI((v) => { v.metadata.resourceVersion = '5'; v.status = { phase: 'Scheduling' }; });
  const fail = () => { throw new Error('should not be called'); };

  it('writes nothing without a node or when the label is there', async () => {
    const c = client(() => undefined);
    expect(await labelNodeIfNeeded(c, cached, undefined, fail)).toEqual({ base: cached });
    const labelled = newVMI((v) => { v.metadata.labels = { 'kubevirt.io/nodeName': 'node-1' }; });
    expect(await labelNodeIfNeeded(c, labelled, 'node-1', fail)).toEqual({ base: labelled });
    expect(c.patches).toEqual([]);
  });

  it('bases the status write on the patched VMI while its status is unchanged, else on the cached one', async () => {
    const same = { ...structuredClone(cached), metadata: { ...cached.metadata, resourceVersion: '6', labels: { 'kubevirt.io/nodeName': 'node-1' } } };
    expect(await labelNodeIfNeeded(client(() => same), cached, 'node-1', fail)).toEqual({ base: same, patched: same });
    const moved = { ...same, status: { phase: 'Running' } };
    expect(await labelNodeIfNeeded(client(() => moved), cached, 'node-1', fail)).toEqual({ base: cached, patched: moved });
  });

  it('reports a refused label and carries on with the cached VMI', async () => {
    const errors: unknown[] = [];
    const r = await labelNodeIfNeeded(client(() => { throw new Error('denied'); }), cached, 'node-1', (e) => errors.push(e));
    expect(r).toEqual({ base: cached });
    expect(errors).toHaveLength(1);
  });
});
