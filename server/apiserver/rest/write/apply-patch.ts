import { applyMergePatch, applyStrategicMergePatch } from '../../patch';
import { nowTimestamp } from '../codec/object-codec';
import type { ApiObject } from '../types/api-object';
import { groupVersion, type ServedType } from '../types/resource-type';
import { badRequest } from '../status-error';

/**
 * Server-side apply, reduced: the applied configuration is merged over the live object
 * (strategic for built-ins), the manager's fields are recorded in metadata.managedFields
 * (FieldsV1, lists owned whole), and fields the manager applied before but no longer
 * does are removed unless another applier owns them. No conflict detection (as with force).
 */
export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

type Path = string[];
/** a FieldsV1 tree: `f:<field>` keys down to empty objects */
interface FieldsTree { [key: string]: FieldsTree }
const SYSTEM_META = new Set(['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'managedFields', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink']);
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** the leaf paths a configuration sets (objects are walked, lists and scalars are leaves) */
export function appliedPaths(config: Record<string, unknown>, rt: ServedType): Path[] {
  const out: Path[] = [];
  const walk = (v: unknown, path: Path) => {
    if (isObject(v) && Object.keys(v).length) for (const [k, c] of Object.entries(v)) walk(c, [...path, k]);
    else out.push(path);
  };
  for (const [k, v] of Object.entries(config)) {
    if (k === 'apiVersion' || k === 'kind' || (k === 'status' && rt.subresources.status)) continue;
    if (k === 'metadata' && isObject(v)) {
      for (const [mk, mv] of Object.entries(v)) if (!SYSTEM_META.has(mk)) walk(mv, ['metadata', mk]);
    } else walk(v, [k]);
  }
  return out;
}

export function toFieldsV1(paths: Path[]): Record<string, unknown> {
  const root: FieldsTree = {};
  for (const p of paths) {
    let cur = root;
    for (const k of p) cur = cur[`f:${k}`] ??= {};
  }
  return root;
}

export function fromFieldsV1(tree: unknown, prefix: Path = []): Path[] {
  if (!isObject(tree)) return [];
  const keys = Object.keys(tree).filter((k) => k.startsWith('f:'));
  if (!keys.length) return prefix.length ? [prefix] : [];
  return keys.flatMap((k) => fromFieldsV1(tree[k], [...prefix, k.slice(2)]));
}

function deletePath(obj: unknown, path: Path): void {
  let cur = obj;
  for (const k of path.slice(0, -1)) { cur = (cur as Record<string, unknown> | null | undefined)?.[k]; if (!isObject(cur)) return; }
  if (isObject(cur)) delete cur[path[path.length - 1]];
}

const key = (p: Path) => JSON.stringify(p);

/** the live object after `manager` applies `config` */
export function applyConfiguration(rt: ServedType, current: ApiObject, config: unknown, manager: string): ApiObject {
  if (!isObject(config)) throw badRequest('error decoding YAML: the applied configuration is not an object');
  const cfg = structuredClone(config);
  // as on create: a null metadata is none (it must not delete the live object's); anything else but an object is a 400
  if (cfg.metadata === null) delete cfg.metadata;
  if (cfg.metadata !== undefined && !isObject(cfg.metadata)) throw badRequest('metadata must be an object');
  const meta = cfg.metadata as Record<string, unknown> | undefined;
  if (meta) for (const k of SYSTEM_META) if (k !== 'name' && k !== 'namespace') delete meta[k];
  const merged = (rt.builtin ? applyStrategicMergePatch(current, cfg, rt.kind) : applyMergePatch(current, cfg)) as ApiObject;
  const entries: ManagedFieldsEntry[] = current.metadata?.managedFields ?? [];
  const mine = entries.find((e) => e.manager === manager && e.operation === 'Apply');
  const now = appliedPaths(cfg, rt);
  const keep = new Set([...now, ...entries.filter((e) => e !== mine && e.operation === 'Apply').flatMap((e) => fromFieldsV1(e.fieldsV1))].map(key));
  for (const p of fromFieldsV1(mine?.fieldsV1)) if (!keep.has(key(p))) deletePath(merged, p);
  merged.metadata.managedFields = [
    ...entries.filter((e) => e !== mine),
    { manager, operation: 'Apply', apiVersion: groupVersion(rt), time: nowTimestamp(), fieldsType: 'FieldsV1', fieldsV1: toFieldsV1(now) },
  ];
  return merged;
}
