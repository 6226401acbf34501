/**
 * VirtualMachineInstanceReplicaSet admission (KubeVirt's vmirs-admitter): a template is required,
 * its spec is validated as a VMI spec, and the selector must parse and match the template labels.
 */
import { invalid, required, type Cause } from '../cause';
import { isObject, objectAt } from '../json-shape';
import { labelSelectorError, selectorMatches, type LabelSelector } from '../../../../lib/kubevirt/label-selector';
import type { VirtualMachineInstanceSpec } from '../../../../lib/kubevirt/vmi-spec-types';
import { checkSchema } from './schema-check';
import { OBJECT_META_SCHEMA } from './admission-schemas';
import { validateVMISpec } from './vmi-spec-validator';
import { validateMemoryRequired } from './domain-validator';
import type { ValidationContext } from './vmi-validator';

export const MISSING_TEMPLATE_MESSAGE = 'missing virtual machine template.';
export const SELECTOR_MISMATCH_MESSAGE = 'selector does not match labels.';

/** the selector checks replica sets and pools share (LabelSelectorAsSelector's error, or a mismatch) */
export function validateGroupSelector(selector: unknown, labels: unknown, field: string): Cause[] {
  const sel = isObject(selector) ? (selector as LabelSelector) : undefined;
  const err = sel ? labelSelectorError(sel) : undefined;
  if (err) return [invalid(field, err)];
  const l = isObject(labels) ? (labels as Record<string, string>) : {};
  // a missing selector selects nothing: the template's labels never match it
  if (!selectorMatches(sel, l)) return [invalid(field, SELECTOR_MISMATCH_MESSAGE)];
  return [];
}

export function validateReplicaSet(rs: unknown, ctx: ValidationContext): Cause[] {
  if (!isObject(rs)) return [invalid('', 'object in body must be of type object')];
  const spec = objectAt(rs.spec);
  const template = spec.template;
  if (!isObject(template)) return [required('spec.template', MISSING_TEMPLATE_MESSAGE)];
  const causes = checkSchema(template.metadata, OBJECT_META_SCHEMA, 'spec.template.metadata');
  const specCauses = validateVMISpec(template.spec, 'spec.template.spec', ctx.config);
  causes.push(...specCauses);
  if (!specCauses.length) causes.push(...validateMemoryRequired(objectAt(template.spec) as unknown as VirtualMachineInstanceSpec, 'spec.template.spec'));
  causes.push(...validateGroupSelector(spec.selector, objectAt(template.metadata).labels, 'spec.selector'));
  return causes;
}
