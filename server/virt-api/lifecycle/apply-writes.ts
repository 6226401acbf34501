/**
 * Performs a lifecycle plan against the API server, in order. A patch whose `test` no longer holds
 * (422 from a JSON patch, or 409) is a lost race → 409; a force-restart's grace-period patch is
 * rolled back when the request after it fails.
 */
import type { CustomObjectsApi } from '@kubernetes/client-node';
import { KUBEVIRT_GROUP, KUBEVIRT_VERSION } from '../../../lib/kubevirt';
import { messageOf, statusCodeOf } from '../../kube/api-errors';
import { jsonPatch } from '../../kube/clients';
import { ApiError, VMI_RESOURCE, VM_RESOURCE, conflict, internal, notFound } from '../api-error';
import type { Write } from './writes';

export interface WriteTarget {
  custom: CustomObjectsApi;
  namespace: string;
  name: string;
  dryRun: boolean;
}

const target = (t: WriteTarget, plural: string) => ({
  group: KUBEVIRT_GROUP, version: KUBEVIRT_VERSION, namespace: t.namespace, plural, ...(t.dryRun ? { dryRun: 'All' } : {}),
});

function toApiError(err: unknown, resource: string, name: string): ApiError {
  const code = statusCodeOf(err);
  if (code === 409 || code === 422) return conflict(resource, name, messageOf(err));
  if (code === 404) return notFound(resource, name);
  return internal(messageOf(err));
}

async function applyOne(t: WriteTarget, w: Write): Promise<void> {
  const { custom, name } = t;
  switch (w.kind) {
    case 'patch-vm':
      await custom.patchNamespacedCustomObject({ ...target(t, 'virtualmachines'), name, body: w.ops }, jsonPatch).catch((e) => { throw toApiError(e, VM_RESOURCE, name); });
      return;
    case 'patch-vm-status':
      await custom.patchNamespacedCustomObjectStatus({ ...target(t, 'virtualmachines'), name, body: w.ops }, jsonPatch).catch((e) => { throw toApiError(e, VM_RESOURCE, name); });
      return;
    case 'patch-vmi':
      await custom.patchNamespacedCustomObject({ ...target(t, 'virtualmachineinstances'), name, body: w.ops }, jsonPatch).catch((e) => { throw toApiError(e, VMI_RESOURCE, name); });
      return;
    case 'create-migration':
      // Upstream turns every rejection into 500 (quirk 6); we keep the API server's code and message.
      await custom.createNamespacedCustomObject({ ...target(t, 'virtualmachineinstancemigrations'), body: w.body }).catch((e) => {
        const code = statusCodeOf(e) ?? 500;
        throw code >= 500 ? internal(messageOf(e)) : new ApiError(code, code === 409 ? 'Conflict' : 'Invalid', messageOf(e));
      });
  }
}

/** Guarded only by the resourceVersion (nothing finer to test): losing that race is no real conflict. */
export const isVersionGuarded = (w: Write) => 'ops' in w && w.ops[0]?.op === 'test' && w.ops[0].path === '/metadata/resourceVersion';

/** Thrown when a resourceVersion-guarded write lost a race: the caller re-reads and plans again. */
export class StaleRead extends Error {
  constructor(readonly conflict: ApiError) {
    super(conflict.message);
  }
}

export async function applyWrites(t: WriteTarget, writes: Write[]): Promise<void> {
  const done: Write[] = [];
  try {
    for (const w of writes) {
      try {
        await applyOne(t, w);
      } catch (err) {
        throw err instanceof ApiError && err.code === 409 && isVersionGuarded(w) ? new StaleRead(err) : err;
      }
      done.push(w);
    }
  } catch (err) {
    for (const w of done.reverse()) {
      if (w.kind === 'patch-vmi' && w.rollback) await applyOne(t, { kind: 'patch-vmi', ops: w.rollback }).catch(() => undefined);
    }
    throw err;
  }
}
