import { describe, expect, it } from 'vitest';
import { applyPatch, type Operation } from 'fast-json-patch';
import { metadataPatch } from './write-vmi';
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

  it('guards every write with the resourceVersion it was computed from', () => {
    expect(metadataPatch(newVMI(), { finalizer: true })[0]).toEqual({ op: 'test', path: '/metadata/resourceVersion', value: '1' });
  });
});
