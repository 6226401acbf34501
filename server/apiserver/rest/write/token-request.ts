/**
 * POST serviceaccounts/<name>/token (authentication.k8s.io/v1 TokenRequest): a signed, expiring
 * token for the ServiceAccount, optionally bound to a Pod or Secret (it dies with it). Validation
 * and messages as kube-apiserver's: at least 10 minutes, at most 2^32 s, default 1 hour.
 */
import { randomUUID } from 'node:crypto';
import type { ResourceRequest } from '../handler-context';
import { parseBody, readBody, sendJson } from '../codec/http-io';
import { badRequest, conflict, invalid, notFound, type StatusCause } from '../status-error';
import { coreObjectMeta, serviceAccountUsername } from '../../sa-token-authn';
import { SA_TOKEN_ISSUER, type BoundRef, type ServiceAccountClaims } from '../../sa-token-signer';

export const MIN_EXPIRATION_SECONDS = 600;
export const DEFAULT_EXPIRATION_SECONDS = 3600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;
const TOKEN_REQUEST = { group: 'authentication.k8s.io', kind: 'TokenRequest' };
const BINDABLE: Record<string, string> = { Pod: 'pods', Secret: 'secrets' };

interface TokenRequestSpec { audiences?: unknown; expirationSeconds?: unknown; boundObjectRef?: { kind?: unknown; apiVersion?: unknown; name?: unknown; uid?: unknown } | null }

function validate(spec: TokenRequestSpec): { expirationSeconds: number; audiences: string[] } {
  const causes: StatusCause[] = [];
  const exp = spec.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS;
  if (typeof exp !== 'number' || !Number.isInteger(exp)) causes.push({ reason: 'FieldValueInvalid', field: 'spec.expirationSeconds', message: `Invalid value: ${JSON.stringify(exp)}: must be an integer` });
  else if (exp < MIN_EXPIRATION_SECONDS) causes.push({ reason: 'FieldValueInvalid', field: 'spec.expirationSeconds', message: `Invalid value: ${exp}: may not specify a duration less than 10 minutes` });
  else if (exp > MAX_EXPIRATION_SECONDS) causes.push({ reason: 'FieldValueInvalid', field: 'spec.expirationSeconds', message: `Invalid value: ${exp}: may not specify a duration larger than 2^32 seconds` });
  const audiences = spec.audiences ?? [];
  if (!Array.isArray(audiences) || audiences.some((a) => typeof a !== 'string' || !a)) causes.push({ reason: 'FieldValueInvalid', field: 'spec.audiences', message: 'Invalid value: must be a list of non-empty strings' });
  if (causes.length) throw invalid(TOKEN_REQUEST, '', causes);
  return { expirationSeconds: exp as number, audiences: (audiences as string[]).length ? (audiences as string[]) : [SA_TOKEN_ISSUER] };
}

/** the bound Pod or Secret, checked as kube checks it (kind, existence, uid) */
function boundObject(r: ResourceRequest, ref: TokenRequestSpec['boundObjectRef']): { kind: string; ref: BoundRef } | undefined {
  if (!ref) return undefined;
  const kind = String(ref.kind ?? '');
  const resource = BINDABLE[kind];
  if (!resource || (ref.apiVersion !== undefined && ref.apiVersion !== 'v1')) throw badRequest(`cannot bind token to object of type ${ref.apiVersion ?? ''}, Kind=${kind}`);
  if (typeof ref.name !== 'string' || !ref.name) throw invalid(TOKEN_REQUEST, '', [{ reason: 'FieldValueRequired', field: 'spec.boundObjectRef.name', message: 'Required value' }]);
  const meta = coreObjectMeta(r.ctx, resource, r.info.namespace!, ref.name);
  if (!meta?.uid) throw notFound({ group: '', resource }, ref.name);
  if (ref.uid !== undefined && ref.uid !== '' && ref.uid !== meta.uid) {
    throw conflict({ group: '', resource }, ref.name, `the UID in the bound object reference (${String(ref.uid)}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  return { kind, ref: { name: ref.name, uid: meta.uid } };
}

export async function handleTokenRequest(r: ResourceRequest): Promise<void> {
  const { ctx, info } = r;
  if (!ctx.tokenSigner) throw badRequest('this API server issues no ServiceAccount tokens');
  const raw = await readBody(r.req);
  const body = (raw.length ? parseBody(raw, r.req.headers['content-type']) : {}) as { metadata?: Record<string, unknown>; spec?: TokenRequestSpec } | null;
  const spec = body?.spec ?? {};
  const { expirationSeconds, audiences } = validate(spec);
  const sa = coreObjectMeta(ctx, 'serviceaccounts', info.namespace!, info.name!);
  if (!sa?.uid) throw notFound({ group: '', resource: 'serviceaccounts' }, info.name!);
  const bound = boundObject(r, spec.boundObjectRef);
  const now = Math.floor(Date.now() / 1000);
  const claims: ServiceAccountClaims = {
    iss: SA_TOKEN_ISSUER, sub: serviceAccountUsername(info.namespace!, info.name!), aud: audiences,
    iat: now, nbf: now, exp: now + expirationSeconds, jti: randomUUID(),
    'kubernetes.io': {
      namespace: info.namespace!, serviceaccount: { name: info.name!, uid: sa.uid },
      ...(bound ? { [bound.kind.toLowerCase()]: bound.ref } : {}),
    },
  };
  const boundObjectRef = bound ? { kind: bound.kind, apiVersion: 'v1', name: bound.ref.name, uid: bound.ref.uid } : undefined;
  sendJson(r.res, 201, {
    kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1',
    metadata: { name: info.name, namespace: info.namespace, creationTimestamp: new Date(now * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') },
    spec: { audiences, expirationSeconds, ...(boundObjectRef ? { boundObjectRef } : {}) },
    status: { token: ctx.tokenSigner.sign(claims), expirationTimestamp: new Date(claims.exp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') },
  });
}
