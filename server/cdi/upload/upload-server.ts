/**
 * The upload endpoint (CDI's cdi-uploadproxy + upload server in one): `POST /v1beta1/upload` with
 * the image as the body, `?namespace=NS&name=DV` naming an upload DataVolume in UploadReady, and the
 * caller's own bearer token, which must be allowed to update that DataVolume (TokenReview +
 * SubjectAccessReview). The bytes go to a sparse scratch file in the claim, then through the
 * importer's conversion into disk.img; the DataVolume ends Succeeded or Failed with the reason.
 * Differences from CDI: no UploadTokenRequest (the caller's token is checked directly), plain HTTP
 * on loopback (embedded mode).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { AuthenticationV1Api, AuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { log } from '../../log';
import { diskFromFile } from '../importer/import-disk';
import { ImportError } from '../importer/fetch-source';
import { SparseFileWriter } from '../importer/sparse-writer';

export interface UploadTarget {
  /** the claim's host path (directory or Block file) and size, once the DataVolume is UploadReady */
  resolve(namespace: string, name: string): Promise<{ path: string; sizeBytes: number } | { error: string; code: number }>;
  finished(namespace: string, name: string, outcome: { ok: true } | { ok: false; message: string }): Promise<void>;
}

const send = (res: ServerResponse, code: number, message: string) => {
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${message}\n`);
};

async function authorized(kc: KubeConfig, token: string, namespace: string, name: string): Promise<string | undefined> {
  const review = await kc.makeApiClient(AuthenticationV1Api).createTokenReview({ body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } } });
  const user = review.status?.user;
  if (!review.status?.authenticated || !user?.username) return 'invalid token';
  const sar = await kc.makeApiClient(AuthorizationV1Api).createSubjectAccessReview({
    body: {
      apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
      spec: { user: user.username, groups: user.groups, resourceAttributes: { group: 'cdi.kubevirt.io', resource: 'datavolumes', verb: 'update', namespace, name } },
    },
  });
  return sar.status?.allowed ? undefined : `User "${user.username}" cannot upload to datavolume ${namespace}/${name}`;
}

export function createUploadServer(kc: KubeConfig, target: UploadTarget): Server {
  const logger = log.child({ component: 'uploadproxy' });
  const busy = new Set<string>();
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://uploadproxy');
      if (url.pathname === '/healthz') return send(res, 200, 'ok');
      if (url.pathname !== '/v1beta1/upload' && url.pathname !== '/v1beta1/upload-async') return send(res, 404, 'not found');
      if (req.method !== 'POST') return send(res, 405, 'method not allowed');
      const namespace = url.searchParams.get('namespace') ?? '';
      const name = url.searchParams.get('name') ?? '';
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!namespace || !name) return send(res, 400, 'namespace and name query parameters are required');
      if (!token) return send(res, 401, 'missing bearer token');
      const denied = await authorized(kc, token, namespace, name);
      if (denied) return send(res, denied === 'invalid token' ? 401 : 403, denied);
      const where = await target.resolve(namespace, name);
      if ('error' in where) return send(res, where.code, where.error);
      const key = `${namespace}/${name}`;
      if (busy.has(key)) return send(res, 409, `an upload to ${key} is already in progress`);
      busy.add(key);
      const scratch = `${where.path}${where.path.endsWith('.img') ? '' : '/'}.upload-${process.pid}.tmp`;
      const started = Date.now();
      try {
        await pipeline(req, new SparseFileWriter(scratch));
        await diskFromFile(scratch, where.path, where.sizeBytes);
        await target.finished(namespace, name, { ok: true });
        logger.info({ dv: key, ms: Date.now() - started }, 'upload complete');
        send(res, 200, 'Upload Complete');
      } catch (err) {
        const message = err instanceof ImportError ? err.message : `upload failed: ${(err as Error).message}`;
        logger.warn({ dv: key, err: message }, 'upload failed');
        await target.finished(namespace, name, { ok: false, message });
        send(res, err instanceof ImportError ? 400 : 500, message);
      } finally {
        busy.delete(key);
        await rm(scratch, { force: true });
      }
    })().catch((err) => { if (!res.headersSent) send(res, 500, (err as Error).message); });
  });
}
