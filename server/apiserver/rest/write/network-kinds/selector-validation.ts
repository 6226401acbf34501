/** metav1 LabelSelector validation (apimachinery's ValidateLabelSelector) as causes with kube's paths and messages. */
import { validateLabelKey, validateLabelValue } from '../../../selectors';
import type { StatusCause } from '../../status-error';
import { asRecord, forbidden, invalidValue, required } from '../storage-kinds/field-errors';

const SET_OPERATORS = ['In', 'NotIn'];
const EXISTENCE_OPERATORS = ['Exists', 'DoesNotExist'];

function labelCauses(labels: unknown, path: string): StatusCause[] {
  return Object.entries(asRecord(labels)).flatMap(([k, v]) => [
    ...validateLabelKey(k).map((m) => invalidValue(path, k, m)),
    ...(typeof v === 'string' ? validateLabelValue(v) : ['must be a string']).map((m) => invalidValue(path, v, m)),
  ]);
}

function requirementCauses(value: unknown, path: string): StatusCause[] {
  const r = asRecord(value);
  const values = Array.isArray(r.values) ? (r.values as unknown[]) : [];
  const operator = r.operator;
  const causes: StatusCause[] = [];
  if (SET_OPERATORS.includes(String(operator))) {
    if (values.length === 0) causes.push(required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (EXISTENCE_OPERATORS.includes(String(operator))) {
    if (values.length > 0) causes.push(forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
  } else {
    causes.push(invalidValue(`${path}.operator`, operator ?? '', 'not a valid selector operator'));
  }
  const key = typeof r.key === 'string' ? r.key : '';
  causes.push(...validateLabelKey(key).map((m) => invalidValue(`${path}.key`, key, m)));
  values.forEach((v, i) => {
    const msgs = typeof v === 'string' ? validateLabelValue(v) : ['must be a string'];
    causes.push(...msgs.map((m) => invalidValue(`${path}.values[${i}]`, v, m)));
  });
  return causes;
}

/** The causes that make a LabelSelector at `path` invalid (nothing for an absent selector). */
export function labelSelectorCauses(selector: unknown, path: string): StatusCause[] {
  if (selector === undefined || selector === null) return [];
  const s = asRecord(selector);
  const expressions = Array.isArray(s.matchExpressions) ? (s.matchExpressions as unknown[]) : [];
  return [
    ...labelCauses(s.matchLabels, `${path}.matchLabels`),
    ...expressions.flatMap((e, i) => requirementCauses(e, `${path}.matchExpressions[${i}]`)),
  ];
}
