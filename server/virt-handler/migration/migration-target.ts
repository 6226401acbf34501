/**
 * The target side of a migration (KubeVirt's migration-target.go): once the controller handed the
 * VMI to this node, start the target launcher in incoming mode (`prepareIncoming`) and publish
 * where it listens; once the source reports completion and the guest runs here, take the VMI
 * over (status.nodeName, targetNodeDomainDetected/ReadyTimestamp, evacuationNodeName cleared).
 *
 * Node-local disks: the target launcher recreates the containerDisk overlays (fresh, over the
 * same base image), the emptyDisks and the cloud-init media exactly as the source did at boot, and
 * serves the writable ones over NBD; the source copies what the guest wrote there before switching.
 */
import { resolveLauncherInputs, type InputReader } from '../launcher-inputs';
import type { VirtualMachineInstance, VMIMigrationState } from '../../../lib/kubevirt';
import type { JsonPatchOperation } from '../../kube/clients';
import { EventTypeNormal, type EventRecorder } from '../../kube/events';
import type { LauncherConnections } from '../launcher-connections';
import { mergeMigrationState, patchVMIStatus, patchMigrationState, type MigrationClients } from './migration-patch';
import { isLauncherReady, podDirOf, podUIDOnNode } from '../pod-dir';
import type { ResolvedConfig } from './migration-progress';

export interface MigrationDeps {
  node: string;
  dataDir: string;
  clients: MigrationClients;
  recorder: Pick<EventRecorder, 'record'>;
  connections: LauncherConnections;
  /** the Secrets, ConfigMaps and tokens the VMI names (the target writes the same disks as the source) */
  inputs: InputReader;
}

const PREPARE_TIMEOUT_MS = 30_000;
/** targetDirectMigrationNodePorts values, as KubeVirt's: 0 = the memory/state stream, 49153 = the block migration (disks) port. */
export const DIRECT_MIGRATION_PORT = 0;
export const BLOCK_MIGRATION_PORT = 49153;
/** Poll while the target launcher is not up / the guest not resumed yet. */
export const TARGET_POLL_MS = 100;

/** Returns a delay when the VMI must be looked at again soon. */
export async function syncMigrationTarget(d: MigrationDeps, key: string, vmi: VirtualMachineInstance, state: VMIMigrationState): Promise<number | undefined> {
  if (state.failed || state.abortRequested) return undefined;
  if (state.completed && vmi.status?.nodeName === d.node) return undefined;
  const podUID = podUIDOnNode(vmi, d.node);
  if (!podUID) return TARGET_POLL_MS; // the VMI controller lists the target Pod in activePods first
  const podDir = podDirOf(d.dataDir, d.node, podUID);
  if (!isLauncherReady(podDir)) return TARGET_POLL_MS;
  const client = d.connections.get(podDir, key).client;
  if (!state.targetNodeAddress) {
    // the target must accept post-copy before the source may switch to it
    const allowPostCopy = (state.migrationConfiguration as ResolvedConfig | undefined)?.allowPostCopy === true;
    const { host, port, nbdPort } = await client.request('prepareIncoming', { vmi: vmi as never, inputs: await resolveLauncherInputs(vmi, d.inputs), allowPostCopy }, { timeoutMs: PREPARE_TIMEOUT_MS });
    const ports: Record<string, number> = { [String(port)]: DIRECT_MIGRATION_PORT };
    if (nbdPort) ports[String(nbdPort)] = BLOCK_MIGRATION_PORT;
    await patchMigrationState(d.clients, vmi, { targetNodeAddress: host, targetDirectMigrationNodePorts: ports });
    void d.recorder.record(vmi as never, EventTypeNormal, 'PreparingTarget', `Migration Target is listening at ${host}, on ports: ${Object.keys(ports).join(',')}`);
    return undefined;
  }
  if (!state.completed) return undefined;
  const domain = await client.request('status');
  if (domain.state !== 'running' && domain.state !== 'paused') return TARGET_POLL_MS;
  await takeOver(d, vmi);
  return undefined;
}

async function takeOver(d: MigrationDeps, vmi: VirtualMachineInstance): Promise<void> {
  const now = new Date().toISOString();
  const ops: JsonPatchOperation[] = [
    { op: 'add', path: '/status/nodeName', value: d.node },
    { op: 'add', path: '/status/migrationState', value: mergeMigrationState(vmi, { targetNodeDomainDetected: true, targetNodeDomainReadyTimestamp: now }) },
  ];
  if (vmi.status?.evacuationNodeName) ops.push({ op: 'remove', path: '/status/evacuationNodeName' });
  await patchVMIStatus(d.clients, vmi, ops);
  void d.recorder.record(vmi as never, EventTypeNormal, 'Migrated', `The VirtualMachineInstance migrated to node ${d.node}.`);
}
