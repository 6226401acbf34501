/**
 * The VM mutator with `inferFromVolume` in front (KubeVirt's order): matchers checked, instance
 * type and preference inferred from the named volume's labels, then the usual VM defaults. An
 * inference failure refuses the VM with 400 and KubeVirt's message; a bad matcher with 422.
 */
import { InferenceError, inferMatchers, type VirtualMachine, type VolumeSourceLookups } from '../../../../lib/kubevirt';
import { isObject, type JsonObject } from '../json-shape';
import { validateMatchers } from '../validators/matcher-validator';
import { diffToMutation, type Mutation, type MutationContext } from './mutation';
import { mutateVM, templateSpecOf } from './vm-mutator';

function wantsInference(vm: unknown): vm is VirtualMachine & JsonObject {
  if (!isObject(vm) || !isObject(vm.spec)) return false;
  const { instancetype, preference } = vm.spec;
  return (isObject(instancetype) && !!instancetype.inferFromVolume) || (isObject(preference) && !!preference.inferFromVolume);
}

export async function mutateVMInferring(vm: unknown, oldVM: unknown, ctx: MutationContext, lookups: VolumeSourceLookups | undefined): Promise<Mutation> {
  const causes = validateMatchers(vm);
  if (causes.length) return { patch: [], warnings: [], causes };
  // a template of the wrong shape is left to the validating webhook's message
  if (!lookups || !wantsInference(vm) || !templateSpecOf(vm)) return mutateVM(vm, oldVM, ctx);
  let inferred: VirtualMachine;
  try {
    inferred = await inferMatchers(vm, lookups);
  } catch (err) {
    if (err instanceof InferenceError) return { patch: [], warnings: [], refused: err.message };
    throw err;
  }
  const rest = mutateVM(inferred, oldVM, ctx);
  return { patch: [...diffToMutation(vm, inferred).patch, ...rest.patch], warnings: rest.warnings };
}
