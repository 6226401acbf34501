/**
 * The VMI spec validation KubeVirt shares between VMIs (field `spec`) and VM templates
 * (field `spec.template.spec`). Structure first: semantic rules run only on a well-typed spec.
 */
import { invalid, required, type Cause } from '../cause';
import { isObject } from '../json-shape';
import type { AdmissionConfig } from '../admission-config';
import type { VirtualMachineInstanceSpec } from '../../../../lib/kubevirt/vmi-spec-types';
import { checkSchema } from './schema-check';
import { vmiSpecSchema } from './admission-schemas';
import { validateBootOrder, validateDisks } from './disks-validator';
import { validateVolumes } from './volumes-validator';
import { validateNetworking } from './networks-validator';
import { validateDomain } from './domain-validator';
import { validateOptions } from './options-validator';
import { validateAccessCredentials } from './access-credentials-validator';
import { validateUnsupportedFields } from './unsupported-fields';

export function validateVMISpec(spec: unknown, field: string, config: AdmissionConfig): Cause[] {
  if (!isObject(spec)) return [invalid(field, `${field} in body must be of type object: "${spec === null ? 'null' : typeof spec}"`)];
  const shape = checkSchema(spec, vmiSpecSchema(), field);
  if (shape.length) return shape;
  if (!isObject(spec.domain)) return [required(`${field}.domain`, `${field}.domain: Required value`)];
  const s = spec as unknown as VirtualMachineInstanceSpec;
  return [
    ...validateDomain(s, field),
    ...validateDisks(s, field),
    ...validateVolumes(s, field, config),
    ...validateNetworking(s, field, config),
    ...validateBootOrder(s, field),
    ...validateOptions(s, field),
    ...validateAccessCredentials(s, field),
    ...validateUnsupportedFields(s, field),
  ];
}
