/** VirtualMachineInstanceMigration mutating webhook: the VMI-name label and the migration finalizer. */
import { cloneJson, isObject, objectAt, stringAt } from '../json-shape';
import { Finalizer, Label } from '../../../../lib/kubevirt/labels';
import { addFinalizer, diffToMutation, NO_MUTATION, type Mutation, type MutationContext } from './mutation';

export function mutateMigrationCreate(vmim: unknown, _ctx: MutationContext): Mutation {
  if (!isObject(vmim) || !isObject(vmim.metadata) && vmim.metadata !== undefined) return NO_MUTATION;
  const vmiName = stringAt(objectAt(vmim.spec).vmiName);
  if (!vmiName) return NO_MUTATION;
  const labels = objectAt(vmim.metadata).labels;
  if (labels !== undefined && labels !== null && !isObject(labels)) return NO_MUTATION;
  const out = cloneJson(vmim);
  const meta = isObject(out.metadata) ? out.metadata : (out.metadata = {});
  meta.labels = { ...objectAt(meta.labels), [Label.VMIName]: vmiName };
  if (meta.finalizers !== undefined && !Array.isArray(meta.finalizers)) return NO_MUTATION;
  addFinalizer(meta, Finalizer.MigrationJob);
  return diffToMutation(vmim, out);
}
