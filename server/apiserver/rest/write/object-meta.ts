import { randomUUID } from 'node:crypto';
import { nowTimestamp } from '../codec/object-codec';
import type { ApiObject } from '../types/api-object';
import { groupVersion, type ServedType } from '../types/resource-type';
import { badRequest, invalid } from '../status-error';

const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const NAME_RE = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

export function generateName(prefix: string): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += GENERATE_ALPHABET[Math.floor(Math.random() * GENERATE_ALPHABET.length)];
  return prefix + s;
}

/** checks the body against the URL and the served type; fills apiVersion/kind/namespace */
export function checkBodyIdentity(rt: ServedType, input: unknown, namespace: string | undefined, name?: string): asserts input is ApiObject {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw badRequest('the body of the request was not a JSON object');
  const body = input as ApiObject;
  const gv = groupVersion(rt);
  for (const field of ['apiVersion', 'kind'] as const) {
    if (body[field] !== undefined && body[field] !== null && typeof body[field] !== 'string') throw badRequest(`${field} must be a string`);
  }
  if (body.apiVersion && body.apiVersion !== gv && !(rt.group && body.apiVersion.startsWith(`${rt.group}/`))) {
    throw badRequest(`the API version in the data (${body.apiVersion}) does not match the expected API version (${gv})`);
  }
  if (body.kind && body.kind !== rt.kind) throw badRequest(`the kind in the data (${body.kind}) does not match the expected kind (${rt.kind})`);
  body.apiVersion = gv;
  body.kind = rt.kind;
  body.metadata ??= {};
  if (typeof body.metadata !== 'object' || Array.isArray(body.metadata)) throw badRequest('metadata must be an object');
  if (rt.namespaced) {
    if (body.metadata.namespace && body.metadata.namespace !== namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    body.metadata.namespace = namespace;
  } else delete body.metadata.namespace;
  if (name !== undefined && body.metadata.name !== undefined && body.metadata.name !== name) {
    throw badRequest(`the name of the object (${body.metadata.name}) does not match the name on the URL (${name})`);
  }
  if (name !== undefined) body.metadata.name = name;
}

/** the system-owned metadata of a new object */
export function initObjectMeta(rt: ServedType, obj: ApiObject): void {
  const m = obj.metadata;
  if (!m.name && m.generateName) m.name = generateName(m.generateName);
  if (!m.name) {
    throw invalid(rt, '', [{ reason: 'FieldValueRequired', field: 'metadata.name', message: 'Required value: name or generateName is required' }]);
  }
  // RBAC objects are named by path segments (`system:basic-user`): their strategy validates that
  if (rt.group !== 'rbac.authorization.k8s.io' && (!NAME_RE.test(m.name) || m.name.length > 253)) {
    throw invalid(rt, m.name, [{ reason: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: "${m.name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character` }]);
  }
  m.uid = randomUUID();
  m.creationTimestamp = nowTimestamp();
  if (tracksGeneration(rt)) m.generation = 1;
  delete m.resourceVersion;
  delete m.deletionTimestamp;
  delete m.deletionGracePeriodSeconds;
  delete m.selfLink;
  if (!Array.isArray(m.managedFields)) delete m.managedFields;
}

const APPS_WORKLOADS = new Set(['apps/deployments', 'apps/replicasets', 'apps/daemonsets']);

/** kube keeps metadata.generation for custom resources and a few built-ins with a spec */
export function tracksGeneration(rt: ServedType): boolean {
  return !rt.builtin || APPS_WORKLOADS.has(`${rt.group}/${rt.resource}`) || rt.resource === 'customresourcedefinitions' || rt.resource === 'apiservices' || rt.resource === 'mutatingwebhookconfigurations' || rt.resource === 'validatingwebhookconfigurations';
}

/** metadata a client may not change on update is carried over from the stored object */
export function keepSystemMeta(obj: ApiObject, old: ApiObject): void {
  const m = obj.metadata;
  const o = old.metadata;
  for (const k of ['uid', 'creationTimestamp', 'generation', 'namespace']) {
    if (o[k] === undefined) delete m[k]; else m[k] = o[k];
  }
  if (o.deletionTimestamp) m.deletionTimestamp = o.deletionTimestamp; else delete m.deletionTimestamp;
  if (o.deletionGracePeriodSeconds !== undefined) m.deletionGracePeriodSeconds = o.deletionGracePeriodSeconds; else delete m.deletionGracePeriodSeconds;
  if (o.generateName !== undefined) m.generateName ??= o.generateName;
  if (!Array.isArray(m.managedFields) || m.managedFields.length === 0) {
    if (o.managedFields) m.managedFields = o.managedFields; else delete m.managedFields;
  }
  delete m.selfLink;
}

/** deep equality of two JSON values */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b as object).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** spec = everything but metadata (and status, when it is a subresource) */
export function specChanged(rt: ServedType, obj: ApiObject, old: ApiObject): boolean {
  for (const k of new Set([...Object.keys(obj), ...Object.keys(old)])) {
    if (k === 'metadata' || k === 'apiVersion' || k === 'kind' || (k === 'status' && rt.subresources.status)) continue;
    if (!jsonEqual(obj[k], old[k])) return true;
  }
  return false;
}
