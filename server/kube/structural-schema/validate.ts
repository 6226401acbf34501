import type { SchemaNode } from './node';
import { checkValueConstraints } from './constraints';
import {
  CAUSE_DUPLICATE, CAUSE_INVALID, CAUSE_NOT_SUPPORTED, CAUSE_REQUIRED, CAUSE_TYPE_INVALID, jsonTypeOf, renderValue, type Cause,
} from './cause';

export type { Cause } from './cause';

/** Validates a pruned object against its schema; returns kube-style causes, in document order. */
export function validateNode(value: unknown, node: SchemaNode, path: string, causes: Cause[]): void {
  const field = path || '<root>';
  if (value === null) {
    if (!node.nullable) causes.push(typeCause(field, node, value));
    return;
  }
  if (!matchesType(value, node)) {
    causes.push(typeCause(field, node, value));
    return;
  }
  if (node.enumValues && !node.enumValues.some((e) => deepEqual(e, value))) {
    const supported = node.enumValues.map((e) => renderValue(e)).join(', ');
    causes.push({ type: CAUSE_NOT_SUPPORTED, field, message: `Unsupported value: ${renderValue(value)}: supported values: ${supported}` });
  }
  checkValueConstraints(value, node, field, causes);
  checkCombinators(value, node, path, causes);
  if (Array.isArray(value)) validateArray(value, node, path, causes);
  else if (typeof value === 'object') validateObjectNode(value as Record<string, unknown>, node, path, causes);
}

function validateObjectNode(obj: Record<string, unknown>, node: SchemaNode, path: string, causes: Cause[]): void {
  for (const key of node.required) {
    if (obj[key] === undefined) causes.push({ type: CAUSE_REQUIRED, field: join(path, key), message: 'Required value' });
  }
  for (const [key, v] of Object.entries(obj)) {
    if (path === '' && (key === 'metadata' || key === 'apiVersion' || key === 'kind')) continue;
    const child = node.properties?.get(key) ?? node.additional;
    if (child) validateNode(v, child, join(path, key), causes);
  }
}

function validateArray(arr: unknown[], node: SchemaNode, path: string, causes: Cause[]): void {
  if (node.items) arr.forEach((v, i) => validateNode(v, node.items!, `${path}[${i}]`, causes));
  if (node.listType === 'set' || node.listType === 'map') {
    const seen = new Set<string>();
    arr.forEach((v, i) => {
      const id = node.listType === 'map' ? JSON.stringify(node.listMapKeys?.map((k) => (v as Record<string, unknown> | null | undefined)?.[k])) : JSON.stringify(v);
      if (seen.has(id)) causes.push({ type: CAUSE_DUPLICATE, field: `${path}[${i}]`, message: `Duplicate value: ${renderDuplicate(v, node)}` });
      seen.add(id);
    });
  }
}

function renderDuplicate(v: unknown, node: SchemaNode): string {
  if (node.listType !== 'map' || !node.listMapKeys) return renderValue(v);
  return renderValue(Object.fromEntries(node.listMapKeys.map((k) => [k, (v as Record<string, unknown> | null | undefined)?.[k]])));
}

function checkCombinators(value: unknown, node: SchemaNode, path: string, causes: Cause[]): void {
  const field = path || '<root>';
  const fails = (n: SchemaNode) => {
    const sub: Cause[] = [];
    validateNode(value, n, path, sub);
    return sub;
  };
  for (const n of node.allOf ?? []) causes.push(...fails(n));
  if (node.anyOf && !node.anyOf.some((n) => fails(n).length === 0)) {
    causes.push({ type: CAUSE_INVALID, field, message: `Invalid value: ${renderValue(value)}: ${field} in body must validate at least one schema (anyOf)` });
  }
  if (node.oneOf && node.oneOf.filter((n) => fails(n).length === 0).length !== 1) {
    causes.push({ type: CAUSE_INVALID, field, message: `Invalid value: ${renderValue(value)}: ${field} in body must validate one and only one schema (oneOf)` });
  }
  if (node.not && fails(node.not).length === 0) {
    causes.push({ type: CAUSE_INVALID, field, message: `Invalid value: ${renderValue(value)}: ${field} in body should not validate the schema` });
  }
}

function matchesType(value: unknown, node: SchemaNode): boolean {
  const actual = jsonTypeOf(value);
  if (node.intOrString) return actual === 'integer' || actual === 'string';
  if (!node.type) return true;
  if (node.type === 'number') return actual === 'number' || actual === 'integer';
  return node.type === actual;
}

function typeCause(field: string, node: SchemaNode, value: unknown): Cause {
  const expected = node.intOrString ? 'integer,string' : node.type ?? 'object';
  const actual = jsonTypeOf(value);
  return {
    type: CAUSE_TYPE_INVALID,
    field,
    message: `Invalid value: "${actual}": ${field} in body must be of type ${expected}: "${actual}"`,
  };
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
