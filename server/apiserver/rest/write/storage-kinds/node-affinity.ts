/** A PersistentVolume's spec.nodeAffinity (kube's validateVolumeNodeAffinity and ValidateNodeSelector, reduced). */
import type { StatusCause } from '../../status-error';
import { asRecord, asString, notSupported, required } from './field-errors';

const OPERATORS = ['DoesNotExist', 'Exists', 'Gt', 'In', 'Lt', 'NotIn'];

function requirementCauses(req: Record<string, unknown>, p: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const op = asString(req.operator) ?? '';
  const values = Array.isArray(req.values) ? req.values : [];
  if (!asString(req.key)) causes.push(required(`${p}.key`));
  if ((op === 'In' || op === 'NotIn') && values.length === 0) causes.push(required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  else if ((op === 'Exists' || op === 'DoesNotExist') && values.length > 0) causes.push({ reason: 'FieldValueForbidden', field: `${p}.values`, message: "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'" });
  else if (!OPERATORS.includes(op)) causes.push(notSupported(`${p}.operator`, op, OPERATORS));
  return causes;
}

function termCauses(term: Record<string, unknown>, p: string): StatusCause[] {
  const exprs = Array.isArray(term.matchExpressions) ? term.matchExpressions : [];
  return exprs.flatMap((e, i) => requirementCauses(asRecord(e), `${p}.matchExpressions[${i}]`));
}

/** [given, causes]: `given` is true when nodeAffinity is present at all */
export function nodeAffinityCauses(value: unknown, p = 'spec.nodeAffinity'): [boolean, StatusCause[]] {
  if (value === undefined || value === null) return [false, []];
  const req = asRecord(value).required;
  if (req === undefined || req === null) return [true, [required(`${p}.required`, 'must specify required node constraints')]];
  const terms = asRecord(req).nodeSelectorTerms;
  if (!Array.isArray(terms) || terms.length === 0) return [true, [required(`${p}.required.nodeSelectorTerms`, 'must have at least one node selector term')]];
  return [true, terms.flatMap((t, i) => termCauses(asRecord(t), `${p}.required.nodeSelectorTerms[${i}]`))];
}
