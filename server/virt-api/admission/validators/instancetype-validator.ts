/**
 * A VM naming an instance type or preference (KubeVirt's instancetype VM admitter): the objects must
 * exist, and the template may not set what the instance type sets — one cause per field, in
 * KubeVirt's words ("VM field(s) spec.template.spec.domain.cpu.sockets conflicts with selected
 * instance type").
 */
import { conflictsMessage, expandSpec, type VirtualMachine } from '../../../../lib/kubevirt';
import { InstancetypeNotFound, type InstancetypeLookup } from '../../../kube/instancetype-lookup';
import { invalid, type Cause } from '../cause';

export type InstancetypeLookups = Pick<InstancetypeLookup, 'instancetype' | 'preference'>;

export async function validateInstancetypeRefs(object: unknown, lookup: InstancetypeLookups | undefined): Promise<Cause[]> {
  const vm = object as VirtualMachine;
  if (!lookup || !vm?.spec?.template?.spec || (!vm.spec.instancetype && !vm.spec.preference)) return [];
  const namespace = vm.metadata?.namespace ?? 'default';
  try {
    const it = vm.spec.instancetype ? await lookup.instancetype(vm.spec.instancetype, namespace) : undefined;
    const pref = vm.spec.preference ? await lookup.preference(vm.spec.preference, namespace) : undefined;
    const e = expandSpec('spec.template.spec', vm.spec.template.spec, it?.spec, pref?.spec);
    return e.conflicts.map((field) => invalid(field, conflictsMessage([field])));
  } catch (err) {
    if (!(err instanceof InstancetypeNotFound)) throw err;
    return [invalid(err.message.includes('preference') ? 'spec.preference' : 'spec.instancetype', err.message)];
  }
}
