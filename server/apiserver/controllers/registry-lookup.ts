import type { ApiContext } from '../rest/api-context';
import { parseKey } from '../rest/codec/object-codec';
import type { ServedType } from '../rest/types/resource-type';

/** the served type and coordinates of a store key */
export function locateKey(ctx: ApiContext, key: string): { rt: ServedType; namespace?: string; name: string } | undefined {
  const k = parseKey(key);
  if (!k) return undefined;
  const rt = ctx.registry.findAnyVersion(k.group, k.resource);
  return rt && { rt, namespace: k.namespace, name: k.name };
}

/** true for errors that mean "someone else got there first" */
export function isGone(err: unknown): boolean {
  const code = (err as { code?: number }).code;
  return code === 404 || code === 409;
}
