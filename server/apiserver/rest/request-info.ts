import { badRequest } from './status-error';
import { decodePathSegment, parseRequestTarget } from '../../http/request-target';
/** What a resource request asks for, parsed from method + URL like kube's RequestInfoFactory. */
export interface RequestInfo {
  isResource: boolean;
  path: string;
  verb: string;
  apiPrefix?: 'api' | 'apis';
  group: string;
  version: string;
  namespace?: string;
  resource: string;
  name?: string;
  subresource?: string;
  query: URLSearchParams;
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

function verbFor(method: string, hasName: boolean, query: URLSearchParams): string {
  const watch = query.get('watch');
  switch (method) {
    case 'GET': case 'HEAD':
      if (watch === 'true' || watch === '1') return 'watch';
      return hasName ? 'get' : 'list';
    case 'POST': return 'create';
    case 'PUT': return 'update';
    case 'PATCH': return 'patch';
    case 'DELETE': return hasName ? 'delete' : 'deletecollection';
    default: return method.toLowerCase();
  }
}

/** A path segment decoded; a malformed escape (`%`, `%zz`, a broken UTF-8 sequence) is the client's error. */
function decodeSegment(segment: string): string {
  const decoded = decodePathSegment(segment);
  if (decoded === undefined) throw badRequest(`invalid request path: malformed percent-encoding in ${JSON.stringify(segment.slice(0, 100))}`);
  return decoded;
}

/** kube's RequestInfo from a method and request target; throws a 400 StatusError for a target it cannot parse */
export function parseRequestInfo(method: string, rawUrl: string): RequestInfo {
  const url = parseRequestTarget(rawUrl);
  if (!url) throw badRequest('invalid request target');
  const path = url.pathname;
  const query = url.searchParams;
  const base: RequestInfo = { isResource: false, path, verb: method.toLowerCase(), group: '', version: '', resource: '', query };
  let parts = path.split('/').filter(Boolean).map(decodeSegment);
  if (parts[0] !== 'api' && parts[0] !== 'apis') return base;
  const apiPrefix = parts[0] as 'api' | 'apis';
  const minParts = apiPrefix === 'api' ? 3 : 4;
  if (parts.length < minParts) return { ...base, apiPrefix, group: apiPrefix === 'apis' ? parts[1] ?? '' : '', version: apiPrefix === 'api' ? parts[1] ?? '' : parts[2] ?? '' };
  const group = apiPrefix === 'api' ? '' : parts[1];
  const version = apiPrefix === 'api' ? parts[1] : parts[2];
  parts = parts.slice(apiPrefix === 'api' ? 2 : 3);
  let legacyWatch = false;
  if (parts[0] === 'watch') { legacyWatch = true; parts = parts.slice(1); }
  let namespace: string | undefined;
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1];
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2])) parts = parts.slice(2);
    else namespace = undefined;
  }
  const [resource, name, subresource] = parts;
  if (resource === 'namespaces' && name) namespace = undefined;
  const verb = legacyWatch ? 'watch' : verbFor(method, Boolean(name), query);
  return { isResource: true, path, verb, apiPrefix, group, version, namespace, resource, name, subresource, query };
}
