/** kubectl's columns for ResourceQuota (kube's internalversion printer): AGE, REQUEST, LIMIT as `name: used/hard`. */
import type { BuiltinColumn } from './builtin-columns';
import { humanAge } from './human-duration';

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/** the `resource: used/hard` pairs of status.hard, sorted, limits.* in the LIMIT column and the rest in REQUEST */
export function quotaCells(o: unknown): { request: string; limit: string } {
  const status = rec(rec(o).status);
  const hard = rec(status.hard);
  const used = rec(status.used);
  const request: string[] = [];
  const limit: string[] = [];
  for (const name of Object.keys(hard).sort()) {
    const pieces = name.split('.');
    (pieces.length > 1 && pieces[0] === 'limits' ? limit : request).push(`${name}: ${String(used[name] ?? '0')}/${String(hard[name])}`);
  }
  return { request: request.join(', '), limit: limit.join(', ') };
}

export const RESOURCE_QUOTA_COLUMNS: BuiltinColumn[] = [
  { name: 'Age', type: 'string', cell: (o, now) => humanAge(rec(rec(o).metadata).creationTimestamp, now) },
  { name: 'Request', type: 'string', description: 'Request represents a minimum amount of cpu/memory that a container may consume.', cell: (o) => quotaCells(o).request },
  { name: 'Limit', type: 'string', description: 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.', cell: (o) => quotaCells(o).limit },
];
