/**
 * The VMI writes of the migration controller (KubeVirt's handoff and abort patches): each is a JSON
 * patch on the VMI status guarded by a resourceVersion test, so a stale cache loses with 409.
 */
import type { KubernetesObject, V1Pod } from '@kubernetes/client-node';
import type { VirtualMachineInstance, VirtualMachineInstanceMigration, VMIMigrationState } from '../../../lib/kubevirt';
import type { CustomResourceClient, JsonPatchOperation } from '../../kube/clients';
import type { MigrationConfiguration } from './migration-policy';

export type VMIStatusClient = Pick<CustomResourceClient<KubernetesObject>, 'jsonPatchStatus'>;

/** PURE: the fresh migrationState of a hand-off. */
export function buildHandOffState(
  vmim: VirtualMachineInstanceMigration, vmi: VirtualMachineInstance, targetPod: V1Pod, sourcePod: V1Pod | undefined,
  config: MigrationConfiguration, policyName?: string,
): VMIMigrationState {
  const state: VMIMigrationState = {
    migrationUid: vmim.metadata.uid,
    sourceNode: vmi.status?.nodeName,
    sourcePod: sourcePod?.metadata?.name,
    targetNode: targetPod.spec?.nodeName,
    targetPod: targetPod.metadata?.name,
    migrationConfiguration: config as unknown as Record<string, unknown>,
  };
  if (policyName) state.migrationPolicyName = policyName;
  return state;
}

function guarded(vmi: VirtualMachineInstance, ops: JsonPatchOperation[]): JsonPatchOperation[] {
  return [{ op: 'test', path: '/metadata/resourceVersion', value: vmi.metadata.resourceVersion }, ...ops];
}

export function patchMigrationState(vmis: VMIStatusClient, vmi: VirtualMachineInstance, state: VMIMigrationState): Promise<unknown> {
  const { namespace = 'default', name = '' } = vmi.metadata;
  return vmis.jsonPatchStatus(namespace, name, guarded(vmi, [{ op: 'add', path: '/status/migrationState', value: state }]));
}

/** PURE: the VMI migrationState with `patch` merged (undefined values removed). */
export function mergeState(vmi: VirtualMachineInstance, patch: Partial<VMIMigrationState>): VMIMigrationState {
  const next: Record<string, unknown> = { ...(vmi.status?.migrationState ?? {}), ...patch };
  for (const k of Object.keys(next)) if (next[k] === undefined) delete next[k];
  return next as VMIMigrationState;
}
