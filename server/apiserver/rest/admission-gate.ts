import type { ApiContext, User } from './api-context';
import type { ServedType } from './resource-type';
import { StatusError } from './status-error';

/** Stand-in for admission/index.ts runAdmission until it lands: allows everything. */
async function runAdmissionStub(_input: any): Promise<{ allowed: true; object?: any; warnings: string[] } | { allowed: false; status: any }> {
  return { allowed: true, warnings: [] };
}

export interface AdmitInput {
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  rt: ServedType;
  subResource?: string;
  object?: any;
  oldObject?: any;
  namespace?: string;
  name?: string;
  user: User;
  dryRun: boolean;
}

/**
 * Calls the stored webhooks for one write. Returns the (possibly mutated) object and
 * warnings; a denial becomes the webhook's Status. Skipped when no webhook is configured.
 */
export async function admit(ctx: ApiContext, input: AdmitInput): Promise<{ object?: any; warnings: string[] }> {
  const { mutating, validating } = ctx.webhooks;
  if (mutating.length === 0 && validating.length === 0) return { object: input.object, warnings: [] };
  const result = await runAdmissionStub({ ...input, mutating, validating });
  if (!result.allowed) {
    const s = result.status ?? {};
    throw new StatusError(s.code ?? 403, s.reason ?? 'Forbidden', s.message ?? 'admission webhook denied the request', s.details);
  }
  return { object: result.object ?? input.object, warnings: result.warnings ?? [] };
}
