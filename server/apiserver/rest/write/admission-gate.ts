import { runAdmission } from '../../admission';
import type { ApiContext, User } from '../api-context';
import { objectKey } from '../codec/object-codec';
import type { ApiObject } from '../types/api-object';
import type { ServedType } from '../types/resource-type';
import { StatusError } from '../status-error';

export interface AdmitInput {
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  rt: ServedType;
  subResource?: string;
  object?: ApiObject;
  oldObject?: ApiObject;
  namespace?: string;
  name?: string;
  user: User;
  dryRun: boolean;
}

const NAMESPACES = { group: '', resource: 'namespaces', namespaced: false };

function namespaceLabels(ctx: ApiContext, input: AdmitInput): Record<string, string> | undefined {
  const name = input.rt.namespaced ? input.namespace : !input.rt.group && input.rt.resource === 'namespaces' ? input.name : undefined;
  if (!name) return undefined;
  const kv = ctx.store.get(objectKey(NAMESPACES, undefined, name));
  return kv ? JSON.parse(kv.value).metadata?.labels ?? {} : input.object?.metadata?.labels;
}

/**
 * Calls the stored webhooks for one write. Returns the (possibly mutated) object and
 * warnings; a denial becomes the webhook's Status. Skipped when no webhook is configured.
 */
export async function admit(ctx: ApiContext, input: AdmitInput): Promise<{ object?: ApiObject; warnings: string[] }> {
  const { mutating, validating } = ctx.webhooks;
  if (mutating.length === 0 && validating.length === 0) return { object: input.object, warnings: [] };
  const result = await runAdmission({ ...input, mutating, validating, namespaceLabels: namespaceLabels(ctx, input) });
  if (!result.allowed) {
    const s = result.status ?? {};
    throw new StatusError(s.code ?? 403, s.reason ?? 'Forbidden', s.message ?? 'admission webhook denied the request', s.details);
  }
  return { object: (result.object as ApiObject | undefined) ?? input.object, warnings: result.warnings ?? [] };
}
