import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildOpenAPIv2 } from './crd-stub';
import { sendJson } from './http-io';
import { buildGroupVersionDoc, buildIndex, hashOf } from './openapi-paths';
import { groupVersion } from './resource-type';
import type { TypeRegistry } from './type-registry';
import { pathNotFound, StatusError } from './status-error';

/** OpenAPI documents, rebuilt when the served types change */
export class OpenAPICache {
  private docs?: Map<string, { doc: unknown; hash: string }>;

  constructor(private readonly registry: TypeRegistry) {
    registry.onChange(() => { this.docs = undefined; });
  }

  private build(): Map<string, { doc: unknown; hash: string }> {
    if (this.docs) return this.docs;
    const byGV = new Map<string, ReturnType<TypeRegistry['all']>>();
    for (const t of this.registry.all()) {
      const gv = groupVersion(t);
      byGV.set(gv, [...(byGV.get(gv) ?? []), t]);
    }
    this.docs = new Map([...byGV].map(([gv, types]) => {
      const doc = buildGroupVersionDoc(types);
      return [gv, { doc, hash: hashOf(doc) }];
    }));
    return this.docs;
  }

  index(): unknown {
    const docs = this.build();
    return buildIndex(this.registry.all(), (gv) => docs.get(gv)?.hash ?? '');
  }

  group(gv: string): unknown | undefined { return this.build().get(gv)?.doc; }
}

/** /openapi/v2 (JSON only: protobuf → 406, kubectl then uses v3) and /openapi/v3[/api/v1|/apis/<g>/<v>] */
export function serveOpenAPI(cache: OpenAPICache, registry: TypeRegistry, req: IncomingMessage, res: ServerResponse, path: string): void {
  if (path === '/openapi/v2') {
    if (/protobuf/.test(req.headers.accept ?? '') && !/json/.test(req.headers.accept ?? '')) {
      throw new StatusError(406, 'NotAcceptable', 'only the following media types are accepted: application/json');
    }
    return sendJson(res, 200, buildOpenAPIv2(registry.all()));
  }
  if (path === '/openapi/v3') return sendJson(res, 200, cache.index());
  const m = /^\/openapi\/v3\/(?:apis\/([^/]+)\/([^/]+)|api\/(v1))$/.exec(path);
  if (!m) throw pathNotFound();
  const doc = cache.group(m[3] ? 'v1' : `${m[1]}/${m[2]}`);
  if (!doc) throw pathNotFound();
  sendJson(res, 200, doc);
}
