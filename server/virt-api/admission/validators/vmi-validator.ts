/** VirtualMachineInstance create and update admission (KubeVirt vmi-create-admitter / vmi-update-admitter). */
import { forbidden, invalid, notSupported, type Cause } from '../cause';
import { isObject, objectAt } from '../json-shape';
import { isKubeVirtServiceAccount, type AdmissionConfig } from '../admission-config';
import { RESERVED_VMI_LABELS } from '../../../../lib/kubevirt/labels';
import { parseQuantity } from '../../../../lib/kubevirt/quantity';
import type { VirtualMachineInstanceSpec } from '../../../../lib/kubevirt/vmi-spec-types';
import { checkSchema } from './schema-check';
import { OBJECT_META_SCHEMA } from './admission-schemas';
import { validateVMISpec } from './vmi-spec-validator';
import { validateVolumesHaveDisks } from './volumes-validator';
import { validateMemoryRequired } from './domain-validator';

export interface AdmissionUser {
  username?: string;
}

export interface ValidationContext {
  config: AdmissionConfig;
  user?: AdmissionUser;
}

function validateReservedLabels(meta: unknown, oldMeta: unknown, update: boolean): Cause[] {
  const labels = objectAt(objectAt(meta).labels);
  const oldLabels = objectAt(objectAt(oldMeta).labels);
  const touched = RESERVED_VMI_LABELS.filter((l) => (update ? labels[l] !== oldLabels[l] : l in labels));
  if (!touched.length) return [];
  const verb = update ? 'modification' : 'creation';
  return [forbidden('metadata.labels', `${verb} of the following reserved kubevirt.io/ labels on a VMI object is prohibited`)];
}

export function validateVMICreate(vmi: unknown, ctx: ValidationContext): Cause[] {
  if (!isObject(vmi)) return [invalid('', 'object in body must be of type object')];
  const meta = checkSchema(vmi.metadata, OBJECT_META_SCHEMA, 'metadata');
  if (meta.length) return meta;
  const causes = validateVMISpec(vmi.spec, 'spec', ctx.config);
  if (causes.length) return causes;
  const spec = vmi.spec as VirtualMachineInstanceSpec;
  causes.push(...validateVolumesHaveDisks(spec, 'spec'), ...validateMemoryRequired(spec, 'spec'));
  if (!isKubeVirtServiceAccount(ctx.config, ctx.user?.username)) causes.push(...validateReservedLabels(vmi.metadata, undefined, false));
  return causes;
}

/** Only KubeVirt's components may change a VMI's spec or its reserved labels once it exists. */
export function validateVMIUpdate(vmi: unknown, oldVMI: unknown, ctx: ValidationContext): Cause[] {
  if (!isObject(vmi) || !isObject(oldVMI)) return [invalid('', 'object in body must be of type object')];
  if (isKubeVirtServiceAccount(ctx.config, ctx.user?.username)) return maxGuestChanged(vmi, oldVMI);
  if (JSON.stringify(canonical(vmi.spec)) !== JSON.stringify(canonical(oldVMI.spec))) {
    return [notSupported('spec', 'update of VMI object is restricted')];
  }
  return validateReservedLabels(vmi.metadata, oldVMI.metadata, true);
}

/** KubeVirt's vmi-update-admitter: a running VMI's memory.maxGuest (its virtio-mem region) is fixed. */
function maxGuestChanged(vmi: Record<string, unknown>, oldVMI: Record<string, unknown>): Cause[] {
  const maxGuest = (o: Record<string, unknown>) => objectAt(objectAt(objectAt(o.spec).domain).memory).maxGuest;
  const before = maxGuest(oldVMI);
  const after = maxGuest(vmi);
  if (before === undefined || after === undefined) return [];
  return parseQuantity(before) === parseQuantity(after) ? [] : [invalid('', 'Memory maxGuest changed')];
}

/** JSON with object keys sorted, so key order does not count as a change. */
export function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (!isObject(v)) return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
}
