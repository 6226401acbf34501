/**
 * The admission webhook endpoint: `handleAdmissionRequest` (pure apart from injected lookups)
 * and a Node request listener around it for the HTTPS server. Bad input is a 4xx, never a 500.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { log } from '../../log';
import { requestPathname } from '../../http/request-target';
import { withAdmissionDefaults, type AdmissionConfig } from './admission-config';
import { allowResponse, badRequestResponse, denyResponse, parseAdmissionReview, patchResponse, refuseResponse, type AdmissionReview } from './admission-review';
import { WEBHOOK_ROUTES, type PresetLookups } from './admitters';
import { TOO_MANY_REQUESTS_REASON, type EvictionLookups } from './validators/eviction-validator';
import type { MigrationLookups } from './validators/migration-validator';
import type { InstancetypeLookups } from './validators/instancetype-validator';
import type { VolumeSourceLookups } from '../../../lib/kubevirt';
import type { RestoreLookups } from './validators/restore-validator';

const logger = log.child({ component: 'virt-api-admission' });
/** Largest review body we read (kube-apiserver caps requests at 3 MiB). */
export const MAX_REVIEW_BYTES = 3 * 1024 * 1024;

export interface AdmissionHandlerContext extends MigrationLookups, Partial<Omit<EvictionLookups, 'getVMI'>> {
  /** fixed settings, or a function read on every request (the live KubeVirt CR) */
  config?: Partial<AdmissionConfig> | (() => Partial<AdmissionConfig>);
  now?: () => Date;
  instancetypes?: InstancetypeLookups;
  presets?: PresetLookups;
  /** PVCs, DataVolumes and DataSources, for `inferFromVolume` */
  volumeSources?: VolumeSourceLookups;
  restores?: RestoreLookups;
}

export interface AdmissionHttpResult {
  status: number;
  body: AdmissionReview | { kind: 'Status'; apiVersion: 'v1'; status: 'Failure'; code: number; reason: string; message: string };
}

function failure(code: number, reason: string, message: string): AdmissionHttpResult {
  return { status: code, body: { kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message } };
}

export async function handleAdmissionRequest(path: string, review: unknown, ctx: AdmissionHandlerContext): Promise<AdmissionHttpResult> {
  const route = WEBHOOK_ROUTES[path];
  if (!route) return failure(404, 'NotFound', `no admission webhook at ${path}`);
  const req = parseAdmissionReview(review);
  if (typeof req === 'string') return failure(400, 'BadRequest', req);
  if (req.operation !== 'CREATE' && req.operation !== 'UPDATE') return { status: 200, body: allowResponse(req.uid) };
  const want = route.resource;
  if (req.resource.resource !== want.resource || (req.resource.group ?? '') !== want.group) {
    return { status: 200, body: badRequestResponse(req.uid, `expect resource to be { ${want.group} ${want.version} ${want.resource}}`) };
  }
  const actx = {
    config: withAdmissionDefaults(typeof ctx.config === 'function' ? ctx.config() : ctx.config), now: ctx.now?.() ?? new Date(), getVMI: ctx.getVMI, listMigrations: ctx.listMigrations,
    getPod: ctx.getPod, markForEvacuation: ctx.markForEvacuation, instancetypes: ctx.instancetypes, presets: ctx.presets, volumeSources: ctx.volumeSources, restores: ctx.restores,
  };
  try {
    if (route.mutate) {
      const m = await route.mutate(req, actx);
      if (m.causes?.length) return { status: 200, body: denyResponse(req.uid, m.causes) };
      return { status: 200, body: m.refused ? badRequestResponse(req.uid, m.refused) : patchResponse(req.uid, m) };
    }
    if (route.decide) {
      const v = await route.decide(req, actx);
      return { status: 200, body: v.allowed ? allowResponse(req.uid) : refuseResponse(req.uid, v.code, TOO_MANY_REQUESTS_REASON, v.message) };
    }
    const causes = route.validate ? await route.validate(req, actx) : [];
    return { status: 200, body: causes.length ? denyResponse(req.uid, causes) : allowResponse(req.uid) };
  } catch (err) {
    logger.error({ err, path, uid: req.uid }, 'admission failed');
    return { status: 200, body: badRequestResponse(req.uid, 'admission could not evaluate the object') };
  }
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_REVIEW_BYTES) { resolve(undefined); req.destroy(); return; }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, r: AdmissionHttpResult): void {
  res.writeHead(r.status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(r.body));
}

/** A request listener for `https.createServer(tls, createAdmissionListener(ctx))`. */
export function createAdmissionListener(ctx: AdmissionHandlerContext) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = requestPathname(req.url);
    if (path === undefined) return send(res, failure(400, 'BadRequest', 'invalid request target'));
    if (req.method !== 'POST') return send(res, failure(405, 'MethodNotAllowed', 'admission webhooks accept POST only'));
    try {
      const body = await readBody(req);
      if (!body) return send(res, failure(413, 'RequestEntityTooLarge', 'AdmissionReview too large'));
      let review: unknown;
      try { review = JSON.parse(body.toString('utf8')); } catch { return send(res, failure(400, 'BadRequest', 'AdmissionReview is not valid JSON')); }
      send(res, await handleAdmissionRequest(path, review, ctx));
    } catch (err) {
      logger.warn({ err, path }, 'admission request aborted');
      if (!res.headersSent) send(res, failure(400, 'BadRequest', 'could not read the request'));
    }
  };
}
