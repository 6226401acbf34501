import type { SchemaNode } from './schema-node';
import { CAUSE_INVALID, CAUSE_TOO_LONG, CAUSE_TOO_MANY, renderValue, type Cause } from './schema-cause';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const patternCache = new Map<string, RegExp>();

/** Value constraints (pattern, bounds, lengths, formats) with kube's messages. */
export function checkValueConstraints(value: unknown, node: SchemaNode, field: string, causes: Cause[]): void {
  const s = node.raw;
  const invalid = (detail: string) =>
    causes.push({ type: CAUSE_INVALID, field, message: `Invalid value: ${renderValue(value)}: ${field} in body ${detail}` });
  if (typeof value === 'string') {
    if (s.maxLength !== undefined && [...value].length > s.maxLength) {
      causes.push({ type: CAUSE_TOO_LONG, field, message: `Too long: may not be more than ${s.maxLength} bytes` });
    }
    if (s.minLength !== undefined && [...value].length < s.minLength) invalid(`should be at least ${s.minLength} chars long`);
    if (s.pattern && !regex(s.pattern).test(value)) invalid(`should match '${s.pattern}'`);
    const formatError = checkFormat(value, node.format);
    if (formatError) invalid(formatError);
  }
  if (typeof value === 'number') {
    if (s.minimum !== undefined && (s.exclusiveMinimum ? value <= s.minimum : value < s.minimum)) {
      invalid(`should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${s.minimum}`);
    }
    if (s.maximum !== undefined && (s.exclusiveMaximum ? value >= s.maximum : value > s.maximum)) {
      invalid(`should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${s.maximum}`);
    }
    if (s.multipleOf !== undefined && value % s.multipleOf !== 0) invalid(`should be a multiple of ${s.multipleOf}`);
  }
  if (Array.isArray(value)) {
    if (s.maxItems !== undefined && value.length > s.maxItems) {
      causes.push({ type: CAUSE_TOO_MANY, field, message: `Too many: ${value.length}: must have at most ${s.maxItems} items` });
    }
    if (s.minItems !== undefined && value.length < s.minItems) invalid(`should have at least ${s.minItems} items`);
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const n = Object.keys(value).length;
    if (s.maxProperties !== undefined && n > s.maxProperties) invalid(`should have at most ${s.maxProperties} properties`);
    if (s.minProperties !== undefined && n < s.minProperties) invalid(`should have at least ${s.minProperties} properties`);
  }
}

function checkFormat(value: string, format: string | undefined): string | undefined {
  switch (format) {
    case 'date-time': return DATE_TIME.test(value) ? undefined : `must be of type date-time: ${renderValue(value)}`;
    case 'byte': return BASE64.test(value) && value.length % 4 === 0 ? undefined : `must be of type byte: ${renderValue(value)}`;
    case 'uuid': return UUID.test(value) ? undefined : `must be of type uuid: ${renderValue(value)}`;
    default: return undefined;
  }
}

function regex(pattern: string): RegExp {
  let re = patternCache.get(pattern);
  if (!re) {
    re = new RegExp(pattern, 'u');
    patternCache.set(pattern, re);
  }
  return re;
}
