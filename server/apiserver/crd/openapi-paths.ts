import { DELETE_OPTIONS, PATCH, STATUS, definitionName, groupVersionPath } from './openapi-meta';
import type { ResourceType } from './resource-type';

export type OpenAPIFlavor = 'v2' | 'v3';

interface Op {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  action: string;
  query: string[];
  body?: string;
  response: string;
  idVerb: string;
}

const QUERY_DESCRIPTIONS: Record<string, string> = {
  dryRun: 'When present, indicates that modifications should not be persisted. Valid values are: - All: all dry run stages will be processed',
  fieldManager: 'fieldManager is a name associated with the actor or entity that is making these changes.',
  fieldValidation: 'fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields. Valid values are: - Ignore - Warn - Strict',
  force: 'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people.',
  labelSelector: 'A selector to restrict the list of returned objects by their labels. Defaults to everything.',
  fieldSelector: 'A selector to restrict the list of returned objects by their fields. Defaults to everything.',
  limit: 'limit is a maximum number of responses to return for a list call.',
  continue: 'The continue option should be set when retrieving more results from the server.',
  resourceVersion: 'resourceVersion sets a constraint on what resource versions a request may be served from.',
  watch: 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.',
  timeoutSeconds: 'Timeout for the list/watch call.',
  gracePeriodSeconds: 'The duration in seconds before the object should be deleted.',
  propagationPolicy: 'Whether and how garbage collection will be performed.',
};
const WRITE_QUERY = ['dryRun', 'fieldManager', 'fieldValidation'];
const LIST_QUERY = ['labelSelector', 'fieldSelector', 'limit', 'continue', 'resourceVersion', 'watch', 'timeoutSeconds'];

/** The path items of one resource type (collection, item, and status when served), keyed by URL path. */
export function pathItemsFor(rt: ResourceType, flavor: OpenAPIFlavor): Record<string, object> {
  const kind = definitionName(rt, rt.kind);
  const list = definitionName(rt, rt.listKind);
  const base = `/${groupVersionPath(rt.group, rt.version)}${rt.namespaced ? '/namespaces/{namespace}' : ''}/${rt.resource}`;
  const scoped = rt.namespaced ? 'Namespaced' : '';
  const idBase = `${camelGroup(rt.group)}${cap(rt.version)}${scoped}${rt.kind}`;
  const collection: Op[] = [
    { method: 'get', action: 'list', query: LIST_QUERY, response: list, idVerb: 'list' },
    { method: 'post', action: 'post', query: WRITE_QUERY, body: kind, response: kind, idVerb: 'create' },
    { method: 'delete', action: 'deletecollection', query: [...LIST_QUERY, 'dryRun', 'gracePeriodSeconds', 'propagationPolicy'], body: DELETE_OPTIONS, response: STATUS, idVerb: 'deleteCollection' },
  ];
  const item: Op[] = [
    { method: 'get', action: 'get', query: ['resourceVersion'], response: kind, idVerb: 'read' },
    { method: 'put', action: 'put', query: WRITE_QUERY, body: kind, response: kind, idVerb: 'replace' },
    { method: 'patch', action: 'patch', query: [...WRITE_QUERY, 'force'], body: PATCH, response: kind, idVerb: 'patch' },
    { method: 'delete', action: 'delete', query: ['dryRun', 'gracePeriodSeconds', 'propagationPolicy'], body: DELETE_OPTIONS, response: STATUS, idVerb: 'delete' },
  ];
  const status: Op[] = item.filter((o) => o.method !== 'delete').map((o) => ({ ...o, idVerb: `${o.idVerb}Status` }));
  const gvk = { group: rt.group, version: rt.version, kind: rt.kind };
  const render = (ops: Op[], withName: boolean, suffix = '') =>
    renderPathItem(ops, { gvk, flavor, idBase, suffix, pathParams: [...(withName ? ['name'] : []), ...(rt.namespaced ? ['namespace'] : [])] });
  const items: Record<string, object> = {
    [base]: render(collection, false),
    [`${base}/{name}`]: render(item, true),
  };
  if (rt.subresources.status) items[`${base}/{name}/status`] = render(status, true, 'Status');
  return items;
}

interface RenderCtx {
  gvk: { group: string; version: string; kind: string };
  flavor: OpenAPIFlavor;
  idBase: string;
  suffix: string;
  pathParams: string[];
}

function renderPathItem(ops: Op[], ctx: RenderCtx): object {
  const item: Record<string, unknown> = {};
  for (const op of ops) item[op.method] = renderOperation(op, ctx);
  item.parameters = ctx.pathParams.map((p) => param(p, 'path', ctx.flavor, true));
  return item;
}

function renderOperation(op: Op, ctx: RenderCtx): object {
  const ref = (name: string) => ({ $ref: `${ctx.flavor === 'v2' ? '#/definitions/' : '#/components/schemas/'}${name}` });
  const id = op.idVerb.replace(/Status$/, '') + ctx.idBase + (op.idVerb.endsWith('Status') ? 'Status' : '');
  const common = {
    description: `${op.action} ${ctx.suffix ? 'status of ' : ''}the specified ${ctx.gvk.kind}`,
    operationId: id,
    tags: [ctx.idBase.replace(ctx.gvk.kind, '').replace(/Namespaced$/, '') || 'core'],
    'x-kubernetes-action': op.action,
    'x-kubernetes-group-version-kind': ctx.gvk,
  };
  const query = op.query.map((q) => param(q, 'query', ctx.flavor, false));
  if (ctx.flavor === 'v2') {
    const body = op.body ? [{ name: 'body', in: 'body', required: op.method !== 'delete', schema: ref(op.body) }] : [];
    return {
      ...common,
      consumes: op.method === 'patch' ? PATCH_TYPES : ['*/*'],
      produces: ['application/json', 'application/yaml'],
      schemes: ['https'],
      parameters: [...body, ...query],
      responses: { '200': { description: 'OK', schema: ref(op.response) }, '401': { description: 'Unauthorized' } },
    };
  }
  return {
    ...common,
    parameters: query,
    ...(op.body ? { requestBody: { content: Object.fromEntries((op.method === 'patch' ? PATCH_TYPES : ['*/*']).map((t) => [t, { schema: ref(op.body!) }])), required: op.method !== 'delete' } } : {}),
    responses: {
      '200': { description: 'OK', content: Object.fromEntries(['application/json', 'application/yaml'].map((t) => [t, { schema: ref(op.response) }])) },
      '401': { description: 'Unauthorized' },
    },
  };
}

const PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

function param(name: string, where: 'path' | 'query', flavor: OpenAPIFlavor, required: boolean): object {
  const type = ['limit', 'timeoutSeconds', 'gracePeriodSeconds'].includes(name) ? 'integer' : ['watch', 'force'].includes(name) ? 'boolean' : 'string';
  const description = where === 'path' ? `${name} of the ${name === 'namespace' ? 'Namespace' : 'object'}` : QUERY_DESCRIPTIONS[name] ?? name;
  const base = { name, in: where, description, uniqueItems: true, ...(required ? { required: true } : {}) };
  return flavor === 'v2' ? { ...base, type } : { ...base, schema: { type } };
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const camelGroup = (group: string) => (group ? group.split(/[.-]/).map(cap).join('') : 'Core');
