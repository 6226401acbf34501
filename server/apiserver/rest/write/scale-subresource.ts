/**
 * The `scale` subresource of a custom resource whose CRD declares spec.subresources.scale
 * (apiextensions' scale: an autoscaling/v1 Scale read from and written to the object's
 * specReplicasPath, statusReplicasPath and labelSelectorPath). `kubectl scale` PATCHes it with
 * a merge patch; an HPA-style client GETs it and PUTs it back.
 */
import { selectorString, type LabelSelector } from '../../../../lib/kubevirt';
import type { ResourceRequest } from '../handler-context';
import { warningHeaders } from '../handler-context';
import { parseBody, readBody, sendJson } from '../codec/http-io';
import { getObject } from '../read/read-objects';
import type { ApiObject } from '../types/api-object';
import type { ServedType } from '../types/resource-type';
import { conflict, invalid, unsupportedMediaType } from '../status-error';
import { APPLY, parsePatch } from './patch-body';
import { updateObject } from './update-object';
import { writeOptionsFrom } from './write-options';

export interface ScalePaths { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string }

const SCALE_KIND = { group: 'autoscaling', kind: 'Scale' };

/** `.spec.replicas` → ['spec', 'replicas'] (CRD scale paths are plain dotted paths) */
const segments = (path: string) => path.replace(/^\./, '').split('.').filter(Boolean);

export function readPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const s of segments(path)) {
    if (!cur || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[s];
  }
  return cur;
}

export function writePath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = segments(path);
  let cur = obj;
  for (const s of parts.slice(0, -1)) {
    if (!cur[s] || typeof cur[s] !== 'object') cur[s] = {};
    cur = cur[s] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1]] = value;
}

/** a CRD's selector path holds the string; a built-in's (apps/v1 spec.selector) a LabelSelector, printed as kube prints it */
function selectorText(selector: unknown): string {
  if (typeof selector === 'string') return selector;
  return selector && typeof selector === 'object' ? selectorString(selector as LabelSelector) : '';
}

/** The autoscaling/v1 Scale of an object, as kube-apiserver renders it for a custom resource. */
interface Meta { name?: string; namespace?: string; uid?: string; resourceVersion?: string; creationTimestamp?: string }
interface ScaleBody { metadata?: { resourceVersion?: string }; spec?: { replicas?: unknown } }

export function scaleOf(obj: { metadata?: Meta }, paths: ScalePaths): ApiObject {
  const m = obj.metadata ?? {};
  const num = (v: unknown) => (typeof v === 'number' ? v : 0);
  const selector = paths.labelSelectorPath ? readPath(obj, paths.labelSelectorPath) : undefined;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
    spec: { replicas: num(readPath(obj, paths.specReplicasPath)) },
    status: { replicas: num(readPath(obj, paths.statusReplicasPath)), ...(selectorText(selector) ? { selector: selectorText(selector) } : {}) },
  };
}

/** kube's Scale validation: spec.replicas an integer ≥ 0 */
function validReplicas(name: string, scale: ScaleBody | undefined): number {
  const n = scale?.spec?.replicas ?? 0;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw invalid(SCALE_KIND, name, [{ reason: 'FieldValueInvalid', field: 'spec.replicas', message: `Invalid value: ${JSON.stringify(n)}: must be an integer` }]);
  }
  if (n < 0) throw invalid(SCALE_KIND, name, [{ reason: 'FieldValueInvalid', field: 'spec.replicas', message: `Invalid value: ${n}: must be greater than or equal to 0` }]);
  return n;
}

function pathsOf(rt: ServedType): ScalePaths {
  return rt.scale ?? { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' };
}

/** writes the replicas a desired Scale asks for into the object (a stale Scale resourceVersion is a conflict) */
async function writeScale(r: ResourceRequest, desired: (current: { metadata?: Meta }) => ScaleBody | undefined): Promise<void> {
  const { ctx, rt, info, user } = r;
  const paths = pathsOf(rt);
  const name = info.name!;
  const result = await updateObject(ctx, {
    rt, namespace: info.namespace, name, subresource: 'scale',
    mutate: (current) => {
      const scale = desired(current);
      const rv = scale?.metadata?.resourceVersion;
      if (rv && rv !== current.metadata.resourceVersion) throw conflict(rt, name);
      writePath(current, paths.specReplicasPath, validReplicas(name, scale));
      return current;
    },
  }, writeOptionsFrom(info.query, user));
  sendJson(r.res, 200, scaleOf(result.object, paths), warningHeaders(result.warnings));
}

export function handleGetScale(r: ResourceRequest): void {
  const obj = getObject(r.ctx, r.rt, r.info.namespace, r.info.name!);
  sendJson(r.res, 200, scaleOf(obj, pathsOf(r.rt)));
}

export async function handleUpdateScale(r: ResourceRequest): Promise<void> {
  const body = parseBody(await readBody(r.req), r.req.headers['content-type']);
  await writeScale(r, () => body as ScaleBody | undefined);
}

export async function handlePatchScale(r: ResourceRequest): Promise<void> {
  // a Scale is a built-in kind: JSON, merge and strategic merge patches apply to it
  const patch = parsePatch({ ...r.rt, kind: 'Scale', builtin: true }, r.req.headers['content-type'], await readBody(r.req));
  if (patch.type === APPLY) throw unsupportedMediaType(patch.type, ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json']);
  const paths = pathsOf(r.rt);
  await writeScale(r, (current) => patch.apply(scaleOf(current, paths)) as ScaleBody | undefined);
}
