/** AdmissionReview v1: parsing the request and building allowed / denied / patched responses. */
import type { Cause } from './cause';
import { isObject, stringAt, type JsonObject } from './json-shape';
import type { Mutation } from './mutators/mutation';

export const ADMISSION_API_VERSION = 'admission.k8s.io/v1';
export const ADMISSION_KIND = 'AdmissionReview';
const HTTP_UNPROCESSABLE = 422;
const HTTP_BAD_REQUEST = 400;

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface AdmissionRequest {
  uid: string;
  operation: Operation;
  resource: { group?: string; version?: string; resource?: string };
  subResource?: string;
  namespace?: string;
  name?: string;
  userInfo: { username?: string; groups?: string[] };
  object?: unknown;
  oldObject?: unknown;
  dryRun?: boolean;
}

export interface AdmissionResponse {
  uid: string;
  allowed: boolean;
  status?: { code: number; reason?: string; message: string; details?: { causes: Cause[] } };
  patch?: string;
  patchType?: 'JSONPatch';
  warnings?: string[];
}

export interface AdmissionReview {
  apiVersion: typeof ADMISSION_API_VERSION;
  kind: typeof ADMISSION_KIND;
  response: AdmissionResponse;
}

const OPERATIONS: readonly string[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

/** The request of an AdmissionReview, or an error text when the review is malformed. */
export function parseAdmissionReview(review: unknown): AdmissionRequest | string {
  if (!isObject(review)) return 'AdmissionReview must be a JSON object';
  if (review.kind !== ADMISSION_KIND) return `expected kind ${ADMISSION_KIND}`;
  if (review.apiVersion !== ADMISSION_API_VERSION) return `unsupported AdmissionReview apiVersion, want ${ADMISSION_API_VERSION}`;
  const req = review.request;
  if (!isObject(req)) return 'AdmissionReview has no request';
  const uid = stringAt(req.uid);
  if (!uid) return 'AdmissionReview request has no uid';
  const op = stringAt(req.operation);
  if (!op || !OPERATIONS.includes(op)) return 'AdmissionReview request has an invalid operation';
  return {
    uid,
    operation: op as Operation,
    resource: isObject(req.resource) ? (req.resource as AdmissionRequest['resource']) : {},
    subResource: stringAt(req.subResource),
    namespace: stringAt(req.namespace),
    name: stringAt(req.name),
    userInfo: isObject(req.userInfo) ? { username: stringAt(req.userInfo.username) } : {},
    object: req.object,
    oldObject: req.oldObject,
    dryRun: req.dryRun === true,
  };
}

function wrap(response: AdmissionResponse): AdmissionReview {
  return { apiVersion: ADMISSION_API_VERSION, kind: ADMISSION_KIND, response };
}

export function allowResponse(uid: string, warnings: string[] = []): AdmissionReview {
  return wrap({ uid, allowed: true, ...(warnings.length ? { warnings } : {}) });
}

/** KubeVirt's ToAdmissionResponse: causes joined with ", " as the message, 422 Invalid. */
export function denyResponse(uid: string, causes: Cause[], code = HTTP_UNPROCESSABLE): AdmissionReview {
  const message = causes.map((c) => c.message).join(', ');
  const reason = code === HTTP_UNPROCESSABLE ? 'Invalid' : 'BadRequest';
  return wrap({ uid, allowed: false, status: { code, reason, message, details: { causes } } });
}

export function badRequestResponse(uid: string, message: string): AdmissionReview {
  return wrap({ uid, allowed: false, status: { code: HTTP_BAD_REQUEST, reason: 'BadRequest', message } });
}

/** A refusal with a code and message of its own (e.g. 429 TooManyRequests), no causes. */
export function refuseResponse(uid: string, code: number, reason: string, message: string): AdmissionReview {
  return wrap({ uid, allowed: false, status: { code, reason, message } });
}

export function patchResponse(uid: string, m: Mutation): AdmissionReview {
  const warnings = m.warnings.length ? { warnings: m.warnings } : {};
  if (!m.patch.length) return wrap({ uid, allowed: true, ...warnings });
  const patch = Buffer.from(JSON.stringify(m.patch)).toString('base64');
  return wrap({ uid, allowed: true, patchType: 'JSONPatch', patch, ...warnings });
}

export type { JsonObject };
