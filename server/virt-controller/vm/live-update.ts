/**
 * The VM controller's side of `vmRolloutStrategy: LiveUpdate` (KubeVirt's handleVMLiveUpdate /
 * CPU and memory hotplug): a VMI started under it gets room for more sockets (maxSockets) and more
 * memory (maxGuest); a later change of the VM's `cpu.sockets` or `memory.guest`, alone and within
 * that room, is copied into the running VMI's spec instead of setting RestartRequired. virt-handler
 * hot-adds the vCPUs; a memory change moves the VMI by live migration into a Pod sized for it
 * (the migration KubeVirt's workload updater would create), where virt-handler sets the memory.
 */
import { NON_LIVE_UPDATABLE_MESSAGE, defaultMaxGuest, defaultMaxSockets, planCPULiveUpdate, planMemoryLiveUpdate, setCondition, MEMORY_CHANGE_CONDITION, WORKLOAD_UPDATE_MIGRATION_ANNOTATION } from '../../../lib/kubevirt';
import type { KubeVirtConfiguration, MemoryLiveUpdate, VirtualMachineInstance, VirtualMachineSpec } from '../../../lib/kubevirt';
import { log } from '../../log';
import { isRestartRequired, type RevisionData } from './restart-required';

const liveLog = log.child({ component: 'vm-controller' });

/** PURE: the VMI about to be created, with maxSockets (a socket count set) and maxGuest (memory.guest set, hotplug possible). */
export function withHotplugRoom(vmi: VirtualMachineInstance, live?: KubeVirtConfiguration['liveUpdateConfiguration']): VirtualMachineInstance {
  const cpu = vmi.spec.domain.cpu;
  const maxSockets = defaultMaxSockets(cpu, live);
  const maxGuest = defaultMaxGuest(vmi.spec, live);
  if (maxSockets === undefined && maxGuest === undefined) return vmi;
  const domain = { ...vmi.spec.domain };
  if (maxSockets !== undefined) domain.cpu = { ...cpu, maxSockets };
  if (maxGuest !== undefined) domain.memory = { ...domain.memory, maxGuest };
  return { ...vmi, spec: { ...vmi.spec, domain } };
}

type MemoryPatch = Omit<Extract<MemoryLiveUpdate, { kind: 'hotplug' }>, 'kind'>;

export type LiveUpdatePlan =
  | { kind: 'none' }
  /** copy these into the running VMI */
  | { kind: 'hotplug'; sockets?: number; memory?: MemoryPatch }
  /** a memory change cannot start yet (one in flight, a migration running): the VMI's next update retries */
  | { kind: 'wait'; message: string }
  | { kind: 'restart'; message: string };

/** A migration has started and not ended (KubeVirt's IsMigrating). */
export function isMigrating(vmi: VirtualMachineInstance): boolean {
  const s = vmi.status?.migrationState;
  return !!s?.startTimestamp && !s.endTimestamp;
}

/** PURE: what the VM's current template means for its running VMI. */
export function planLiveUpdate(current: VirtualMachineSpec, atStart: RevisionData | undefined, vmi: VirtualMachineInstance, liveUpdate: boolean): LiveUpdatePlan {
  if (!atStart?.spec) return { kind: 'none' }; // unknown start spec: do not nag
  if (!liveUpdate) return isRestartRequired(current, atStart) ? { kind: 'restart', message: NON_LIVE_UPDATABLE_MESSAGE } : { kind: 'none' };
  const cpu = planCPULiveUpdate(current.template?.spec, atStart.spec.template?.spec, vmi.spec);
  if (cpu.kind === 'restart') return cpu;
  const memory = planMemoryLiveUpdate(current.template?.spec, vmi, isMigrating(vmi));
  if (memory.kind === 'restart') return memory;
  const plan: LiveUpdatePlan = { kind: 'hotplug' };
  if (cpu.kind === 'hotplug') plan.sockets = cpu.sockets;
  if (memory.kind === 'hotplug') plan.memory = { guest: memory.guest, requestsMemory: memory.requestsMemory, limitsMemory: memory.limitsMemory };
  if (plan.sockets === undefined && !plan.memory) return memory.kind === 'wait' ? memory : { kind: 'none' };
  return plan;
}

export interface LiveUpdateClients {
  vmis: { mergePatch(namespace: string, name: string, patch: object): Promise<unknown>; mergePatchStatus?(namespace: string, name: string, patch: object): Promise<unknown> };
  migrations?: { create(namespace: string, body: object): Promise<unknown> };
}

/** The VMI spec patch for a memory change: guest memory and the resources its next Pod is sized by. */
function memorySpecPatch(m: MemoryPatch): object {
  const resources: Record<string, unknown> = {};
  if (m.requestsMemory) resources.requests = { memory: m.requestsMemory };
  if (m.limitsMemory) resources.limits = { memory: m.limitsMemory };
  return { memory: { guest: m.guest }, ...(Object.keys(resources).length ? { resources } : {}) };
}

/** The migration that moves the VMI into a Pod sized for its new memory (KubeVirt's workload updater's). */
export function memoryChangeMigration(vmi: VirtualMachineInstance): object {
  return {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstanceMigration',
    metadata: { generateName: 'kubevirt-workload-update-', namespace: vmi.metadata.namespace ?? 'default', annotations: { [WORKLOAD_UPDATE_MIGRATION_ANNOTATION]: '' } },
    spec: { vmiName: vmi.metadata.name },
  };
}

interface MigrationLike { metadata?: { creationTimestamp?: string | Date }; spec?: { vmiName?: string }; status?: { phase?: string } }

const seconds = (t: string | Date | null | undefined) => Math.floor(new Date(t ?? NaN).getTime() / 1000);

/**
 * PURE: a memory change is marked (HotMemoryChange True) but no migration moves the VMI for it:
 * none created since the mark (or only failed ones) and none completed since. Level-triggered, so
 * a lost or failed migration is created again (KubeVirt's workload updater retries the same way).
 */
export function memoryMigrationDue(vmi: VirtualMachineInstance, migrations: MigrationLike[]): boolean {
  const mark = vmi.status?.conditions?.find((c) => c.type === MEMORY_CHANGE_CONDITION && c.status === 'True');
  if (!mark || isMigrating(vmi)) return false;
  const since = seconds(mark.lastTransitionTime);
  if (!Number.isFinite(since)) return false;
  const state = vmi.status?.migrationState;
  if (state?.completed && !state.failed && seconds(state.startTimestamp) >= since) return false;
  return !migrations.some((m) => m.spec?.vmiName === vmi.metadata.name && seconds(m.metadata?.creationTimestamp) >= since && m.status?.phase !== 'Failed');
}

/** Applies a hotplug plan to the VMI; returns the RestartRequired message when the VM needs a restart instead, else false. */
export async function applyLiveUpdate(clients: LiveUpdateClients['vmis'] | LiveUpdateClients, vmi: VirtualMachineInstance, plan: LiveUpdatePlan, now = new Date()): Promise<string | false> {
  const { vmis, migrations } = 'vmis' in clients ? clients : { vmis: clients, migrations: undefined };
  if (plan.kind === 'none') return false;
  if (plan.kind === 'restart') return plan.message;
  const { namespace = 'default', name = '' } = vmi.metadata;
  if (plan.kind === 'wait') {
    liveLog.debug({ vmi: `${namespace}/${name}`, reason: plan.message }, 'memory change waits');
    return false;
  }
  const domain: Record<string, unknown> = {};
  if (plan.sockets !== undefined) domain.cpu = { sockets: plan.sockets };
  if (plan.memory) Object.assign(domain, memorySpecPatch(plan.memory));
  await vmis.mergePatch(namespace, name, { spec: { domain } });
  if (plan.sockets !== undefined) liveLog.info({ vmi: `${namespace}/${name}`, sockets: plan.sockets }, 'CPU sockets live-updated');
  if (plan.memory) {
    // KubeVirt's VMI controller marks the change in flight; the handler removes the condition once
    // the migration target has the memory
    const conditions = setCondition(vmi.status?.conditions, { type: MEMORY_CHANGE_CONDITION, status: 'True' }, now);
    await vmis.mergePatchStatus?.(namespace, name, { status: { conditions } });
    await migrations?.create(namespace, memoryChangeMigration(vmi));
    liveLog.info({ vmi: `${namespace}/${name}`, guest: plan.memory.guest }, 'hotplugging memory: migrating to a Pod sized for it');
  }
  return false;
}
