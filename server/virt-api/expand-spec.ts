/**
 * `virtualmachines/{name}/expand-spec`: the VM as it would start, its template expanded with its
 * instance type and preference, without spec.instancetype / spec.preference (KubeVirt drops them
 * so the answer can be posted as it is); a VM without either comes back as it is. Nothing is written.
 */
import { conflictsMessage, expandSpec, type VirtualMachine } from '../../lib/kubevirt';
import { InstancetypeNotFound, type InstancetypeLookup } from '../kube/instancetype-lookup';
import { ApiError } from './api-error';

export async function expandVM(vm: VirtualMachine, lookup: Pick<InstancetypeLookup, 'instancetype' | 'preference'>): Promise<VirtualMachine> {
  if (!vm.spec.instancetype && !vm.spec.preference) return vm;
  const namespace = vm.metadata.namespace ?? 'default';
  try {
    const it = vm.spec.instancetype ? await lookup.instancetype(vm.spec.instancetype, namespace) : undefined;
    const pref = vm.spec.preference ? await lookup.preference(vm.spec.preference, namespace) : undefined;
    const e = expandSpec('spec.template.spec', vm.spec.template.spec, it?.spec, pref?.spec);
    if (e.conflicts.length) throw new ApiError(422, 'Invalid', conflictsMessage(e.conflicts));
    const template = vm.spec.template;
    // as KubeVirt: the matchers go, so the answer can be posted as it is without conflicting
    const { instancetype: _it, preference: _pref, ...rest } = vm.spec;
    return { ...vm, spec: { ...rest, template: { metadata: { ...template.metadata, annotations: { ...e.annotations, ...template.metadata?.annotations } }, spec: e.spec } } };
  } catch (err) {
    if (err instanceof InstancetypeNotFound) throw new ApiError(404, 'NotFound', err.message);
    throw err;
  }
}
