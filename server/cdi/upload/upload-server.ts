/**
 * The upload endpoint (CDI's cdi-uploadproxy + upload server in one): `POST /v1beta1/upload` with
 * the image as the body and an upload token (UploadTokenRequest) naming an upload DataVolume in
 * UploadReady, or the caller's own token with `?namespace=NS&name=DV` (upload-auth.ts). The bytes
 * go to a sparse scratch file in the claim, then through the importer's conversion into disk.img;
 * the DataVolume ends Succeeded or Failed with the reason. The same server answers the API
 * server's DataVolume admission webhook (`POST /datavolume-validate`, datavolume-admission.ts),
 * which CDI serves from cdi-apiserver. Differences from CDI: plain HTTP on loopback (embedded
 * mode), and the caller's own token is still taken.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { KubeConfig } from '@kubernetes/client-node';
import { log } from '../../log';
import { parseRequestTarget } from '../../http/request-target';
import { diskFromFile } from '../importer/import-disk';
import { ImportError } from '../importer/fetch-source';
import { SparseFileWriter } from '../importer/sparse-writer';
import { uploadAuthorizer, type UploadAuthorizer } from './upload-auth';
import { declineUpgrades } from '../../http/decline-upgrades';
import { admitDataVolume, DATAVOLUME_WEBHOOK_PATH } from '../datavolume-admission';
import { subjectAccessReviewer, type AccessReview } from '../../kube/clone-authorization';

const MAX_REVIEW_BYTES = 3 * 1024 * 1024;

/** answers one AdmissionReview POSTed by the API server */
async function serveAdmission(req: IncomingMessage, res: ServerResponse, review: AccessReview): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_REVIEW_BYTES) return send(res, 413, 'AdmissionReview too large');
    chunks.push(c as Buffer);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return send(res, 400, 'AdmissionReview is not JSON');
  }
  const reply = await admitDataVolume(body, review);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(reply));
}

export interface UploadTarget {
  /** the claim's host path (directory or Block file) and size, once the DataVolume is UploadReady */
  resolve(namespace: string, name: string): Promise<{ path: string; sizeBytes: number } | { error: string; code: number }>;
  finished(namespace: string, name: string, outcome: { ok: true } | { ok: false; message: string }): Promise<void>;
}

const send = (res: ServerResponse, code: number, message: string) => {
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${message}\n`);
};


export function createUploadServer(kc: KubeConfig, target: UploadTarget, auth: UploadAuthorizer = uploadAuthorizer(kc), review: AccessReview = subjectAccessReviewer(kc)): Server {
  const logger = log.child({ component: 'uploadproxy' });
  const busy = new Set<string>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = parseRequestTarget(req.url);
      if (!url) return send(res, 400, 'malformed request target');
      if (url.pathname === '/healthz') return send(res, 200, 'ok');
      if (url.pathname === DATAVOLUME_WEBHOOK_PATH && req.method === 'POST') return serveAdmission(req, res, review);
      if (url.pathname !== '/v1beta1/upload' && url.pathname !== '/v1beta1/upload-async') return send(res, 404, 'not found');
      if (req.method !== 'POST') return send(res, 405, 'method not allowed');
      const allowed = await auth.authorize(req.headers.authorization, url.searchParams);
      if (!allowed.ok) return send(res, allowed.code, allowed.message);
      const { namespace, name } = allowed;
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
  declineUpgrades(server);
  return server;
}
