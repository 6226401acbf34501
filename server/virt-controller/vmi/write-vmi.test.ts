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
