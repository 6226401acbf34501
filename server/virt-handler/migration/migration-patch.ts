/**
 * virt-handler's writes for a migration: the VMI's status.migrationState (and, on take-over,
 * nodeName) through a JSON patch guarded by the resourceVersion, and the progress annotation on
 * the VMIM (a merge patch; progress is last-writer-wins).
 */
import type { VirtualMachineInstance, VMIMigrationState } from '../../../lib/kubevirt';
import type { JsonPatchOperation, KubeClients } from '../../kube/clients';
import { ANNOTATION_MIGRATION_PROGRESS, type MigrationProgress } from './migration-progress';

export type MigrationClients = Pick<KubeClients, 'vmis' | 'migrations'>;

export function mergeMigrationState(vmi: VirtualMachineInstance, patch: Partial<VMIMigrationState>): VMIMigrationState {
  const next: Record<string, unknown> = { ...(vmi.status?.migrationState ?? {}), ...patch };
  for (const k of Object.keys(next)) if (next[k] === undefined) delete next[k];
  return next as VMIMigrationState;
}

export function patchVMIStatus(clients: MigrationClients, vmi: VirtualMachineInstance, ops: JsonPatchOperation[]): Promise<unknown> {
  const { namespace = 'default', name = '' } = vmi.metadata;
  return clients.vmis.jsonPatchStatus(namespace, name, [{ op: 'test', path: '/metadata/resourceVersion', value: vmi.metadata.resourceVersion }, ...ops]);
}

export function patchMigrationState(clients: MigrationClients, vmi: VirtualMachineInstance, patch: Partial<VMIMigrationState>): Promise<unknown> {
  return patchVMIStatus(clients, vmi, [{ op: 'add', path: '/status/migrationState', value: mergeMigrationState(vmi, patch) }]);
}

export function writeProgress(clients: MigrationClients, vmim: { namespace: string; name: string }, progress: MigrationProgress): Promise<unknown> {
  return clients.migrations.mergePatch(vmim.namespace, vmim.name, { metadata: { annotations: { [ANNOTATION_MIGRATION_PROGRESS]: JSON.stringify(progress) } } });
}
