/** What a mutator returns: a JSON patch (RFC 6902) against the object it was given, plus warnings. */
import jsonpatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import type { AdmissionConfig } from '../admission-config';
import type { Cause } from '../cause';
import type { AdmissionUser } from '../validators/vmi-validator';

export interface Mutation {
  patch: Operation[];
  warnings: string[];
  /** the object is refused with this message (400, as KubeVirt's ToAdmissionResponseError) */
  refused?: string;
  /** the object is refused with these causes (422, as KubeVirt's ToAdmissionResponse) */
  causes?: Cause[];
}

export interface MutationContext {
  config: AdmissionConfig;
  user?: AdmissionUser;
  now: Date;
}

export const NO_MUTATION: Mutation = { patch: [], warnings: [] };

/** Patch that turns `before` into `after`. */
export function diffToMutation(before: unknown, after: unknown, warnings: string[] = []): Mutation {
  return { patch: jsonpatch.compare(before as object, after as object), warnings };
}

export function addFinalizer(meta: Record<string, unknown>, finalizer: string): void {
  const list = Array.isArray(meta.finalizers) ? meta.finalizers : [];
  if (!list.includes(finalizer)) meta.finalizers = [...list, finalizer];
}
