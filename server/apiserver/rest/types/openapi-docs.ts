import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildOpenAPIv2, buildOpenAPIv3Group, buildOpenAPIv3Index } from '../../crd/openapi';
import { sendJson } from '../codec/http-io';
import type { TypeRegistry } from './type-registry';
import { pathNotFound, StatusError } from '../status-error';

/** /openapi/v2 (JSON only: protobuf → 406, kubectl then uses v3) and /openapi/v3[/api/v1|/apis/<g>/<v>] */
export function serveOpenAPI(registry: TypeRegistry, req: IncomingMessage, res: ServerResponse, path: string): void {
  const types = registry.all();
  if (path === '/openapi/v2') {
    const accept = req.headers.accept ?? '';
    if (/protobuf/.test(accept) && !/json/.test(accept)) {
      throw new StatusError(406, 'NotAcceptable', 'only the following media types are accepted: application/json');
    }
    return sendJson(res, 200, buildOpenAPIv2(types));
  }
  if (path === '/openapi/v3') return sendJson(res, 200, buildOpenAPIv3Index(types));
  const m = /^\/openapi\/v3\/(?:apis\/([^/]+)\/([^/]+)|api\/(v1))$/.exec(path);
  const doc = m && (m[3] ? buildOpenAPIv3Group(types, '', 'v1') : buildOpenAPIv3Group(types, m[1], m[2]));
  if (!doc) throw pathNotFound();
  sendJson(res, 200, doc);
}
