import type { KeyValue } from '../../store/types';
import type { ApiObject } from '../types/api-object';
import { groupVersion, type ResourceType, type StorageMapping } from '../types/resource-type';

/** Store keys: /registry/<group or "core">/<resource>/<namespace or "_">/<name> */
type KeyedType = Pick<ResourceType, 'group' | 'resource' | 'namespaced'> & { storedAs?: StorageMapping };

const storageGroup = (rt: KeyedType) => (rt.storedAs ? rt.storedAs.group : rt.group) || 'core';

export function objectKey(rt: KeyedType, namespace: string | undefined, name: string): string {
  return `/registry/${storageGroup(rt)}/${rt.resource}/${rt.namespaced ? namespace : '_'}/${name}`;
}

/** prefix of every object of a type, or of one namespace's objects */
export function objectPrefix(rt: KeyedType, namespace?: string): string {
  const base = `/registry/${storageGroup(rt)}/${rt.resource}/`;
  if (!rt.namespaced) return `${base}_/`;
  return namespace ? `${base}${namespace}/` : base;
}

/** parse a store key back into its parts */
export function parseKey(key: string): { group: string; resource: string; namespace?: string; name: string } | undefined {
  const parts = key.split('/');
  if (parts.length !== 6 || parts[1] !== 'registry') return undefined;
  return { group: parts[2] === 'core' ? '' : parts[2], resource: parts[3], namespace: parts[4] === '_' ? undefined : parts[4], name: parts[5] };
}

/** the object a client sees: stored JSON + apiVersion/kind of the served version + resourceVersion */
export function decodeObject(rt: Pick<ResourceType, 'group' | 'version' | 'kind'> & { storedAs?: StorageMapping }, kv: Pick<KeyValue, 'value' | 'modRevision'>, value = kv.value): ApiObject {
  const stored = JSON.parse(value) as ApiObject;
  const obj = rt.storedAs ? rt.storedAs.fromStorage(stored) : stored;
  obj.apiVersion = groupVersion(rt);
  obj.kind = rt.kind;
  obj.metadata ??= {};
  obj.metadata.resourceVersion = String(kv.modRevision);
  return obj;
}

/**
 * What the store keeps: the object without resourceVersion, keys ordered apiVersion, kind,
 * metadata first (so rawObject can stamp the resourceVersion without parsing).
 */
export function encodeObject(obj: ApiObject, rt?: { storedAs?: StorageMapping }): string {
  if (rt?.storedAs) obj = { ...rt.storedAs.toStorage(obj), apiVersion: 'v1' };
  const { apiVersion, kind, metadata, ...rest } = obj;
  const { resourceVersion: _rv, ...meta } = metadata ?? {};
  return JSON.stringify({ apiVersion, kind, metadata: meta, ...rest });
}

/**
 * decodeObject as JSON text, without a parse when the stored text starts with the served
 * apiVersion and kind (always, for single-version types); falls back to parse + stringify.
 */
export function rawObject(rt: Pick<ResourceType, 'group' | 'version' | 'kind'> & { storedAs?: StorageMapping }, kv: Pick<KeyValue, 'value' | 'modRevision'>, value = kv.value): string {
  return stampedText(rt, value, kv.modRevision) ?? JSON.stringify(decodeObject(rt, kv, value));
}

/**
 * Stored text with its resourceVersion stamped in, when it starts with the served apiVersion and
 * kind (what encodeObject wrote for that type); undefined otherwise (the caller decodes instead).
 */
export function stampedText(rt: Pick<ResourceType, 'group' | 'version' | 'kind'>, value: string, modRevision: number | string): string | undefined {
  const prefix = `{"apiVersion":${JSON.stringify(groupVersion(rt))},"kind":${JSON.stringify(rt.kind)},"metadata":{`;
  if (!value.startsWith(prefix) || value[prefix.length] !== '"') return undefined;
  return `${prefix}"resourceVersion":"${modRevision}",${value.slice(prefix.length)}`;
}

/** kube's timestamp format: RFC 3339 without fractional seconds */
export function nowTimestamp(date = new Date()): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
