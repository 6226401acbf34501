import { createHash } from 'node:crypto';
import { LIST_META, OBJECT_META, definitionName, groupVersionPath, metaDefinitions } from './openapi-meta';
import { pathItemsFor, type OpenAPIFlavor } from './openapi-paths';
import type { JSONSchemaProps } from '../../kube/structural-schema/json-schema-props';
import type { ResourceType } from './resource-type';

/** What /version reports; kubectl only reads it for display. */
const INFO = { title: 'Kubernetes', version: 'v1.32.0' };
const COMBINATORS = ['anyOf', 'oneOf', 'allOf', 'not'];
const METADATA_DESCRIPTION = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/** Swagger 2.0 for /openapi/v2: one definition per kind (and list kind) with x-kubernetes-group-version-kind. */
export function buildOpenAPIv2(rts: ResourceType[]): object {
  return memo(`v2`, rts, () => ({ swagger: '2.0', info: INFO, ...documentBody(rts.filter((r) => r.served), 'v2') }));
}

/** The /openapi/v3 discovery document: one entry per group/version, each URL carrying a content hash. */
export function buildOpenAPIv3Index(rts: ResourceType[]): object {
  return memo('index', rts, () => {
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const [group, version] of groupVersions(rts)) {
      const doc = buildOpenAPIv3Group(rts, group, version)!;
      const path = groupVersionPath(group, version);
      paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hashOf(doc)}` };
    }
    return { paths };
  });
}

/** The OpenAPI 3.0 document of one group/version (/openapi/v3/apis/<group>/<version>), or undefined. */
export function buildOpenAPIv3Group(rts: ResourceType[], group: string, version: string): object | undefined {
  const mine = rts.filter((r) => r.served && r.group === group && r.version === version);
  if (!mine.length) return undefined;
  return memo(`v3:${group}/${version}`, rts, () => {
    const { paths, definitions } = documentBody(mine, 'v3');
    return { openapi: '3.0.0', info: INFO, paths, components: { schemas: definitions } };
  });
}

function documentBody(rts: ResourceType[], flavor: OpenAPIFlavor): { paths: Record<string, object>; definitions: Record<string, object> } {
  const refPrefix = flavor === 'v2' ? '#/definitions/' : '#/components/schemas/';
  const definitions: Record<string, object> = { ...metaDefinitions(refPrefix) };
  const paths: Record<string, object> = {};
  for (const rt of rts) {
    Object.assign(paths, pathItemsFor(rt, flavor));
    definitions[definitionName(rt, rt.kind)] = kindSchema(rt, flavor, refPrefix);
    definitions[definitionName(rt, rt.listKind)] = listSchema(rt, refPrefix);
  }
  return { paths, definitions };
}

function kindSchema(rt: ResourceType, flavor: OpenAPIFlavor, refPrefix: string): object {
  const source = (rt.schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) as JSONSchemaProps;
  const schema = (flavor === 'v2' ? toV2(source) : structuredClone(source)) as JSONSchemaProps;
  const metaRef = { $ref: refPrefix + OBJECT_META };
  schema.properties = {
    ...schema.properties,
    metadata: flavor === 'v2' ? metaRef : { allOf: [metaRef], default: {}, description: METADATA_DESCRIPTION },
  };
  schema['x-kubernetes-group-version-kind'] = [{ group: rt.group, kind: rt.kind, version: rt.version }];
  return schema;
}

function listSchema(rt: ResourceType, refPrefix: string): object {
  const gvPrefix = rt.group ? `${rt.group}/` : '';
  return {
    description: `${rt.listKind} is a list of ${rt.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { type: 'string', description: `APIVersion defines the versioned schema of this representation of an object (${gvPrefix}${rt.version}).` },
      kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
      items: { type: 'array', items: { $ref: refPrefix + definitionName(rt, rt.kind) }, description: `List of ${rt.resource}.` },
      metadata: { $ref: refPrefix + LIST_META },
    },
    'x-kubernetes-group-version-kind': [{ group: rt.group, kind: rt.listKind, version: rt.version }],
  };
}

/** OpenAPI v2 cannot express nullable or combinators: drop them, as kube does for CRDs. */
function toV2(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(toV2);
  if (s === null || typeof s !== 'object') return s;
  const schema = s as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'nullable' || COMBINATORS.includes(k)) continue;
    if (k === 'type' && schema['x-kubernetes-int-or-string']) continue;
    out[k] = k === 'enum' || k === 'required' || k === 'default' ? v : toV2(v);
  }
  return out;
}

function groupVersions(rts: ResourceType[]): [string, string][] {
  const seen = new Map<string, [string, string]>();
  for (const r of rts) if (r.served) seen.set(`${r.group}/${r.version}`, [r.group, r.version]);
  return [...seen.values()];
}

const hashOf = (doc: object) => createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase().slice(0, 128);

// Documents are rebuilt only when the set of resource types (or one of their schemas) changes.
const schemaIds = new WeakMap<object, number>();
let nextSchemaId = 1;
const cache = new Map<string, object>();
const MAX_CACHED = 64;

function fingerprint(rts: ResourceType[]): string {
  return rts
    .map((r) => {
      let id = r.schema ? schemaIds.get(r.schema) : 0;
      if (id === undefined) schemaIds.set(r.schema!, (id = nextSchemaId++));
      return `${r.group}/${r.version}/${r.resource}/${r.kind}/${r.served}/${r.namespaced}/${r.subresources.status}/${id}`;
    })
    .join('|');
}

function memo<T extends object>(what: string, rts: ResourceType[], build: () => T): T {
  const key = `${what}#${fingerprint(rts)}`;
  const hit = cache.get(key);
  if (hit) return hit as T;
  const doc = build();
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(key, doc);
  return doc;
}
