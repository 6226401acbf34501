import type { JSONSchemaProps } from './json-schema-props';
import type { SchemaNode } from './node';
import { CAUSE_INVALID, CAUSE_TOO_LONG, CAUSE_TOO_MANY, renderValue, type Cause } from './cause';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const patternCache = new Map<string, RegExp>();

type Invalid = (detail: string) => void;

/** Value constraints (pattern, bounds, lengths, formats) with kube's messages. */
export function checkValueConstraints(value: unknown, node: SchemaNode, field: string, causes: Cause[]): void {
  const invalid: Invalid = (detail) =>
    causes.push({ type: CAUSE_INVALID, field, message: `Invalid value: ${renderValue(value)}: ${field} in body ${detail}` });
  if (typeof value === 'string') checkString(value, node, field, causes, invalid);
  else if (typeof value === 'number') checkNumber(value, node.raw, invalid);
  else if (Array.isArray(value)) checkArray(value, node.raw, field, causes, invalid);
  else if (value !== null && typeof value === 'object') checkObject(value, node.raw, invalid);
}

function checkString(value: string, node: SchemaNode, field: string, causes: Cause[], invalid: Invalid): void {
  const s = node.raw;
  const length = [...value].length;
  if (s.maxLength !== undefined && length > s.maxLength) {
    causes.push({ type: CAUSE_TOO_LONG, field, message: `Too long: may not be more than ${s.maxLength} bytes` });
  }
  if (s.minLength !== undefined && length < s.minLength) invalid(`should be at least ${s.minLength} chars long`);
  if (s.pattern && !regex(s.pattern).test(value)) invalid(`should match '${s.pattern}'`);
  const formatError = checkFormat(value, node.format);
  if (formatError) invalid(formatError);
}

function checkNumber(value: number, s: JSONSchemaProps, invalid: Invalid): void {
  if (s.minimum !== undefined && (s.exclusiveMinimum ? value <= s.minimum : value < s.minimum)) {
    invalid(`should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${s.minimum}`);
  }
  if (s.maximum !== undefined && (s.exclusiveMaximum ? value >= s.maximum : value > s.maximum)) {
    invalid(`should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${s.maximum}`);
  }
  if (s.multipleOf !== undefined && value % s.multipleOf !== 0) invalid(`should be a multiple of ${s.multipleOf}`);
}

function checkArray(value: unknown[], s: JSONSchemaProps, field: string, causes: Cause[], invalid: Invalid): void {
  if (s.maxItems !== undefined && value.length > s.maxItems) {
    causes.push({ type: CAUSE_TOO_MANY, field, message: `Too many: ${value.length}: must have at most ${s.maxItems} items` });
  }
  if (s.minItems !== undefined && value.length < s.minItems) invalid(`should have at least ${s.minItems} items`);
}

function checkObject(value: object, s: JSONSchemaProps, invalid: Invalid): void {
  const n = Object.keys(value).length;
  if (s.maxProperties !== undefined && n > s.maxProperties) invalid(`should have at most ${s.maxProperties} properties`);
  if (s.minProperties !== undefined && n < s.minProperties) invalid(`should have at least ${s.minProperties} properties`);
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
