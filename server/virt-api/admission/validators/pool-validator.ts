/**
 * VirtualMachinePool admission (KubeVirt's vmpool-admitter): a VM template is required and is
 * validated as a VirtualMachine; the selector must match the template's labels and cannot change.
 */
import { invalid, required, type Cause } from '../cause';
import { isObject, objectAt } from '../json-shape';
import { MISSING_TEMPLATE_MESSAGE, validateGroupSelector } from './replicaset-validator';
import { validateVM } from './vm-validator';
import type { ValidationContext } from './vmi-validator';

export const SELECTOR_IMMUTABLE_MESSAGE = 'selector is immutable after creation.';

const prefixed = (c: Cause): Cause => ({ ...c, field: c.field ? `spec.virtualMachineTemplate.${c.field}` : 'spec.virtualMachineTemplate' });

export function validatePool(pool: unknown, oldPool: unknown, ctx: ValidationContext): Cause[] {
  if (!isObject(pool)) return [invalid('', 'object in body must be of type object')];
  const spec = objectAt(pool.spec);
  const template = spec.virtualMachineTemplate;
  if (!isObject(template)) return [required('spec.virtualMachineTemplate', MISSING_TEMPLATE_MESSAGE)];
  const asVM = { metadata: template.metadata ?? {}, spec: template.spec };
  const causes = validateVM(asVM, undefined, ctx).map(prefixed);
  causes.push(...validateGroupSelector(spec.selector, objectAt(template.metadata).labels, 'spec.selector'));
  if (isObject(oldPool) && JSON.stringify(objectAt(oldPool.spec).selector ?? null) !== JSON.stringify(spec.selector ?? null)) {
    causes.push(invalid('spec.selector', SELECTOR_IMMUTABLE_MESSAGE));
  }
  return causes;
}
