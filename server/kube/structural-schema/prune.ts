import { OBJECT_META_FIELDS, TYPE_META_FIELDS } from './object-meta-fields';
import type { SchemaNode } from './node';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Structural pruning and defaulting as kube-apiserver applies them to a custom resource, in
 * place: unknown fields are dropped (their paths collected), `null` in a non-nullable field is
 * dropped (or defaulted), absent fields with a `default` get it.
 */
export function pruneAndDefault(obj: Record<string, unknown>, root: SchemaNode, unknown: string[]): void {
  pruneObject(obj, root, '', unknown, true);
}

/** The same pruning and defaulting for any value below the root (`path` names it in the collected paths). */
export function pruneValue(value: unknown, node: SchemaNode, path: string, unknown: string[]): void {
  if (Array.isArray(value)) {
    if (node.items) value.forEach((v, i) => pruneValue(v, node.items!, `${path}[${i}]`, unknown));
    return;
  }
  if (isObject(value)) pruneObject(value, node, path, unknown, node.embedded);
}

function pruneObject(obj: Record<string, unknown>, node: SchemaNode, path: string, unknown: string[], typeMeta: boolean): void {
  for (const key of Object.keys(obj)) {
    const childPath = path ? `${path}.${key}` : key;
    if (typeMeta && TYPE_META_FIELDS.has(key)) {
      if (key === 'metadata' && isObject(obj.metadata)) pruneMetadata(obj.metadata, childPath, unknown);
      continue;
    }
    const child = node.properties?.get(key) ?? node.additional;
    if (!child) {
      if (!node.preserveUnknown) {
        unknown.push(childPath);
        delete obj[key];
      }
      continue;
    }
    if (obj[key] === null && !child.nullable) {
      if (child.hasDefault) obj[key] = structuredClone(child.default);
      else delete obj[key];
      continue;
    }
    pruneValue(obj[key], child, childPath, unknown);
  }
  applyDefaults(obj, node, path, unknown);
}

function applyDefaults(obj: Record<string, unknown>, node: SchemaNode, path: string, unknown: string[]): void {
  if (!node.properties) return;
  for (const [key, child] of node.properties) {
    if (obj[key] !== undefined || !child.hasDefault) continue;
    obj[key] = structuredClone(child.default);
    pruneValue(obj[key], child, path ? `${path}.${key}` : key, unknown);
  }
}

function pruneMetadata(meta: Record<string, unknown>, path: string, unknown: string[]): void {
  for (const key of Object.keys(meta)) {
    if (OBJECT_META_FIELDS.has(key)) continue;
    unknown.push(`${path}.${key}`);
    delete meta[key];
  }
}
