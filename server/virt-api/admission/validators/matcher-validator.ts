/**
 * The shape of `spec.instancetype` / `spec.preference` that the schema cannot say (KubeVirt checks
 * it in its VM mutator, before inference): a name or `inferFromVolume`, never both, no kind
 * beside `inferFromVolume`, and a known failure policy.
 */
import { isObject, textOf } from '../json-shape';
import { CauseType, type Cause } from '../cause';

const notFound = (field: string, message: string): Cause => ({ type: CauseType.FieldValueNotFound, field, message });
const present = (v: unknown) => typeof v === 'string' && v !== '';

function matcherCauses(matcher: unknown, key: 'instancetype' | 'preference', typeName: string): Cause[] {
  if (!isObject(matcher)) return [];
  const causes: Cause[] = [];
  const field = `spec.${key}`;
  const infer = present(matcher.inferFromVolume);
  if (!present(matcher.name) && !infer) causes.push(notFound(field, `Either Name or InferFromVolume should be provided within the ${typeName}`));
  if (infer && present(matcher.name)) causes.push(notFound(`${field}.name`, `Name should not be provided when InferFromVolume is used within the ${typeName}`));
  if (infer && present(matcher.kind)) causes.push(notFound(`${field}.kind`, `Kind should not be provided when InferFromVolume is used within the ${typeName}`));
  const policy = matcher.inferFromVolumeFailurePolicy;
  if (policy !== undefined && policy !== null && policy !== 'Ignore' && policy !== 'Reject') {
    causes.push({ type: CauseType.FieldValueInvalid, field: `${field}.inferFromVolumeFailurePolicy`, message: `Invalid value '${textOf(policy)}' for InferFromVolumeFailurePolicy` });
  }
  return causes;
}

export function validateMatchers(vm: unknown): Cause[] {
  if (!isObject(vm) || !isObject(vm.spec)) return [];
  return [
    ...matcherCauses(vm.spec.instancetype, 'instancetype', 'InstancetypeMatcher'),
    ...matcherCauses(vm.spec.preference, 'preference', 'PreferenceMatcher'),
  ];
}
