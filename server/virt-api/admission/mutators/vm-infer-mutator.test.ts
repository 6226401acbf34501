import { describe, expect, it } from 'vitest';
import jsonpatch from 'fast-json-patch';
import type { VirtualMachine, VolumeSourceLookups } from '../../../../lib/kubevirt';
import { config, validVM } from '../test-fixtures';
import { mutateVMInferring } from './vm-infer-mutator';

const ctx = { config, now: new Date('2026-01-01T00:00:00Z') };
const lookups = (labels?: Record<string, string>): VolumeSourceLookups => ({
  pvc: (_ns, name) => Promise.resolve(name === 'disk' ? { labels } : undefined),
  dataVolume: () => Promise.resolve(undefined),
  dataSource: () => Promise.resolve(undefined),
});
function vmWith(matchers: Record<string, unknown>): VirtualMachine {
  const vm: VirtualMachine = structuredClone(validVM());
  vm.spec.template.spec.volumes = [{ name: 'root', persistentVolumeClaim: { claimName: 'disk' } }];
  vm.spec.template.spec.domain.devices.disks = [{ name: 'root', disk: {} }];
  delete vm.spec.template.spec.domain.memory;
  delete vm.spec.template.spec.domain.resources;
  Object.assign(vm.spec, matchers);
  return vm;
}

describe('VM mutator: inferFromVolume', () => {
  it('replaces the matchers with what the PVC labels say (the patch applies to the request object)', async () => {
    const vm = vmWith({ instancetype: { inferFromVolume: 'root' }, preference: { inferFromVolume: 'root' } });
    const m = await mutateVMInferring(vm, undefined, ctx, lookups({
      'instancetype.kubevirt.io/default-instancetype': 'u1.small', 'instancetype.kubevirt.io/default-preference': 'demo',
    }));
    expect(m.causes).toBeUndefined();
    const out = jsonpatch.applyPatch(structuredClone(vm), m.patch).newDocument;
    expect(out.spec.instancetype).toEqual({ name: 'u1.small' });
    expect(out.spec.preference).toEqual({ name: 'demo' });
    expect(out.spec.template.spec.domain.firmware?.uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses with 400 and KubeVirt message when the label is missing', async () => {
    const m = await mutateVMInferring(vmWith({ instancetype: { inferFromVolume: 'root' } }), undefined, ctx, lookups({}));
    expect(m.refused).toBe('unable to find required instancetype.kubevirt.io/default-instancetype label on the volume');
    expect(m.patch).toEqual([]);
  });

  it('a template of the wrong shape is not inferred from (the validating webhook refuses it), and never throws', async () => {
    const vm = vmWith({ instancetype: { inferFromVolume: 'root' }, dataVolumeTemplates: 'x' }) as unknown as { spec: { template: { spec: Record<string, unknown> } } };
    vm.spec.template.spec.volumes = 'root';
    const m = await mutateVMInferring(vm, undefined, ctx, lookups({}));
    expect(m).toEqual({ patch: [], warnings: [] });
  });

  it.each([
    [{ instancetype: {} }, 'spec.instancetype', 'Either Name or InferFromVolume should be provided within the InstancetypeMatcher'],
    [{ preference: { name: 'a', inferFromVolume: 'root' } }, 'spec.preference.name', 'Name should not be provided when InferFromVolume is used within the PreferenceMatcher'],
    [{ instancetype: { kind: 'VirtualMachineInstancetype', inferFromVolume: 'root' } }, 'spec.instancetype.kind', 'Kind should not be provided when InferFromVolume is used within the InstancetypeMatcher'],
    [{ instancetype: { inferFromVolume: 'root', inferFromVolumeFailurePolicy: 'Maybe' } }, 'spec.instancetype.inferFromVolumeFailurePolicy', "Invalid value 'Maybe' for InferFromVolumeFailurePolicy"],
    [{ preference: { inferFromVolume: 'root', inferFromVolumeFailurePolicy: { toString: 1 } } }, 'spec.preference.inferFromVolumeFailurePolicy', 'Invalid value \'{"toString":1}\' for InferFromVolumeFailurePolicy'],
  ])('a bad matcher %j → 422 on %s', async (matchers, field, message) => {
    const m = await mutateVMInferring(vmWith(matchers), undefined, ctx, lookups({}));
    expect(m.causes).toEqual([expect.objectContaining({ field, message })]);
  });
});
