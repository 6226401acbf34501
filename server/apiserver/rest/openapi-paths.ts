import { createHash } from 'node:crypto';
import { groupVersion, type ServedType } from './resource-type';

/**
 * OpenAPI v3 documents per group/version, enough for kubectl: every resource path with
 * its operations, the PATCH operation tagged with the GVK and the fieldValidation query
 * parameter (so kubectl leaves validation to the server), and one schema per kind
 * (the CRD's openAPIV3Schema, or a free-form object for built-ins).
 */
const FIELD_VALIDATION = { name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } };
const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'];

export function schemaName(rt: ServedType): string {
  const g = rt.group ? rt.group.split('.').reverse().join('.') : 'io.k8s.api.core';
  return `${g}.${rt.version}.${rt.kind}`;
}

function gvkExt(rt: ServedType) {
  return { 'x-kubernetes-group-version-kind': { group: rt.group, version: rt.version, kind: rt.kind } };
}

function basePath(rt: ServedType): string {
  const prefix = rt.group ? `/apis/${rt.group}/${rt.version}` : '/api/v1';
  return rt.namespaced ? `${prefix}/namespaces/{namespace}/${rt.resource}` : `${prefix}/${rt.resource}`;
}

function op(rt: ServedType, action: string, ref: string, extra: Record<string, unknown> = {}) {
  return {
    operationId: `${action}${rt.kind}`, 'x-kubernetes-action': action, ...gvkExt(rt),
    responses: { '200': { description: 'OK', content: { 'application/json': { schema: { $ref: ref } } } } },
    ...extra,
  };
}

function resourcePaths(rt: ServedType): Record<string, unknown> {
  const ref = `#/components/schemas/${schemaName(rt)}`;
  const body = (types: string[]) => ({ requestBody: { content: Object.fromEntries(types.map((t) => [t, { schema: { $ref: ref } }])) } });
  const patchTypes = rt.builtin ? [...PATCH_TYPES, 'application/strategic-merge-patch+json'] : PATCH_TYPES;
  const itemOps = {
    get: op(rt, 'get', ref),
    put: op(rt, 'put', ref, { parameters: [FIELD_VALIDATION], ...body(['application/json']) }),
    patch: op(rt, 'patch', ref, { parameters: [FIELD_VALIDATION], ...body(patchTypes) }),
    delete: op(rt, 'delete', ref),
  };
  const paths: Record<string, unknown> = {
    [basePath(rt)]: { get: op(rt, 'list', ref), post: op(rt, 'post', ref, { parameters: [FIELD_VALIDATION], ...body(['application/json']) }) },
    [`${basePath(rt)}/{name}`]: itemOps,
  };
  if (rt.subresources.status) paths[`${basePath(rt)}/{name}/status`] = { get: itemOps.get, put: itemOps.put, patch: itemOps.patch };
  return paths;
}

function kindSchema(rt: ServedType): Record<string, unknown> {
  const base = rt.schema ? structuredClone(rt.schema) as Record<string, unknown> : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  return { ...base, 'x-kubernetes-group-version-kind': [{ group: rt.group, version: rt.version, kind: rt.kind }] };
}

export function buildGroupVersionDoc(types: ServedType[]): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const rt of types) {
    if (rt.verbs.length === 1 && rt.verbs[0] === 'create') continue;
    Object.assign(paths, resourcePaths(rt));
    schemas[schemaName(rt)] = kindSchema(rt);
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.32.0' }, paths, components: { schemas } };
}

/** the /openapi/v3 index: one entry per group/version with a content hash */
export function buildIndex(types: ServedType[], docHash: (gv: string) => string): Record<string, unknown> {
  const gvs = [...new Set(types.map((t) => groupVersion(t)))];
  return { paths: Object.fromEntries(gvs.map((gv) => {
    const key = gv.includes('/') ? `apis/${gv}` : `api/${gv}`;
    return [key, { serverRelativeURL: `/openapi/v3/${key}?hash=${docHash(gv)}` }];
  })) };
}

export const hashOf = (doc: unknown) => createHash('sha512').update(JSON.stringify(doc)).digest('hex').slice(0, 64).toUpperCase();
