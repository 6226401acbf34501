/**
 * Admission's structural check: a field of the object under review against the schema its CRD
 * carries (deploy/crds), with the structural validator the API server runs. Admission sees
 * objects before that check, so it runs it first and the validators after it may read every
 * field by its declared JSON type. `null` counts as absent (the API server prunes it), unknown
 * fields are ignored (it prunes them too), and so are missing required fields: the validators
 * report those KubeVirt names with KubeVirt's messages, the API server's schema gate the rest.
 * Messages read like KubeVirt's virt-api:
 * `spec.domain.devices.disks in body must be of type array: "object"`, `spec.domain: Required value`,
 * and a malformed quantity gets the apimachinery parser's error, as virt-api's decoder reports it.
 */
import { CauseType, type Cause } from '../cause';
import { textOf } from '../json-shape';
import { parseQuantity, QUANTITY_FORMAT_ERROR } from '../../../../lib/kubevirt/quantity';
import {
  CAUSE_DUPLICATE, CAUSE_NOT_SUPPORTED, CAUSE_REQUIRED, CAUSE_TOO_LONG, CAUSE_TOO_MANY, CAUSE_TYPE_INVALID, type Cause as SchemaCause,
} from '../../../kube/structural-schema/cause';
import type { SchemaNode } from '../../../kube/structural-schema/node';
import { pruneValue } from '../../../kube/structural-schema/prune';
import { validateNode } from '../../../kube/structural-schema/validate';

/** Most causes one check reports (keeps responses small for hostile input). */
export const MAX_SCHEMA_CAUSES = 20;

const CAUSE_TYPES: Record<string, CauseType> = {
  [CAUSE_NOT_SUPPORTED]: CauseType.FieldValueNotSupported,
  [CAUSE_DUPLICATE]: CauseType.FieldValueDuplicate,
  [CAUSE_TOO_LONG]: CauseType.FieldValueTooLong,
  [CAUSE_TOO_MANY]: CauseType.FieldValueTooMany,
};

/** `value` (at `field`) against `node`; [] when it conforms or is absent. */
export function checkSchema(value: unknown, node: SchemaNode, field: string): Cause[] {
  if (value === undefined || value === null) return [];
  const pruned = structuredClone(value);
  pruneValue(pruned, node, field, []);
  const found: SchemaCause[] = [];
  validateNode(pruned, node, field, found);
  const quantities: Cause[] = [];
  checkQuantities(pruned, node, field, quantities);
  const badQuantity = new Set(quantities.map((c) => c.field));
  const typed = found.filter((c) => c.type !== CAUSE_REQUIRED && !badQuantity.has(c.field));
  return [...typed.map(toAdmissionCause), ...quantities].slice(0, MAX_SCHEMA_CAUSES);
}

function toAdmissionCause(c: SchemaCause): Cause {
  if (c.type === CAUSE_TYPE_INVALID) {
    // kube-openapi's own text, without kube-apiserver's `Invalid value: "<type>": ` wrapper
    return { type: CauseType.FieldValueInvalid, field: c.field, message: c.message.replace(/^Invalid value: "[a-z]+": /, '') };
  }
  return { type: CAUSE_TYPES[c.type] ?? CauseType.FieldValueInvalid, field: c.field, message: `${c.field}: ${c.message}` };
}

/** A resource.Quantity field: int-or-string with the quantity pattern (plain IntOrString has none). */
const isQuantity = (node: SchemaNode) => node.intOrString && typeof node.raw.pattern === 'string';

/** Quantity fields checked by the shared quantity grammar (lib/kubevirt/quantity.ts), in document order. */
function checkQuantities(value: unknown, node: SchemaNode, field: string, out: Cause[]): void {
  if (isQuantity(node)) {
    if ((typeof value === 'string' || typeof value === 'number') && parseQuantity(value) === undefined) {
      out.push({ type: CauseType.FieldValueInvalid, field, message: `${field}: Invalid value: "${textOf(value)}": ${QUANTITY_FORMAT_ERROR}` });
    }
    return;
  }
  if (Array.isArray(value)) {
    if (node.items) value.forEach((v, i) => checkQuantities(v, node.items!, `${field}[${i}]`, out));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) {
    const child = node.properties?.get(k) ?? node.additional;
    if (child) checkQuantities(v, child, field ? `${field}.${k}` : k, out);
  }
}
