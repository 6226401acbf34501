/**
 * The VM controller's side of `vmRolloutStrategy: LiveUpdate` (KubeVirt's handleVMLiveUpdate /
 * CPU hotplug): a VMI started under it gets room for more sockets (maxSockets); a later change of
 * the VM's `cpu.sockets`, alone and within that room, is copied into the running VMI's spec
 * (virt-handler then hot-adds the vCPUs) instead of setting RestartRequired.
 */
import { defaultMaxSockets, planCPULiveUpdate, type CPULiveUpdate } from '../../../lib/kubevirt';
import type { KubeVirtConfiguration, VirtualMachineInstance, VirtualMachineSpec } from '../../../lib/kubevirt';
import { log } from '../../log';
import { isRestartRequired, type RevisionData } from './restart-required';

const liveLog = log.child({ component: 'vm-controller' });

/** PURE: the VMI about to be created, with maxSockets set when the VM has a socket count. */
export function withHotplugRoom(vmi: VirtualMachineInstance, live?: KubeVirtConfiguration['liveUpdateConfiguration']): VirtualMachineInstance {
  const cpu = vmi.spec.domain.cpu;
  const maxSockets = defaultMaxSockets(cpu, live);
  if (maxSockets === undefined) return vmi;
  return { ...vmi, spec: { ...vmi.spec, domain: { ...vmi.spec.domain, cpu: { ...cpu, maxSockets } } } };
}

/** PURE: what the VM's current template means for its running VMI. */
export function planLiveUpdate(current: VirtualMachineSpec, atStart: RevisionData | undefined, vmi: VirtualMachineInstance, liveUpdate: boolean): CPULiveUpdate {
  if (!atStart?.spec) return { kind: 'none' }; // unknown start spec: do not nag
  if (!liveUpdate) return isRestartRequired(current, atStart) ? { kind: 'restart', message: 'vmRolloutStrategy is Stage' } : { kind: 'none' };
  return planCPULiveUpdate(current.template?.spec, atStart.spec.template?.spec, vmi.spec);
}

/** Applies a hotplug plan to the VMI; returns whether the VM needs a restart instead. */
export async function applyLiveUpdate(vmis: { mergePatch(namespace: string, name: string, patch: object): Promise<unknown> }, vmi: VirtualMachineInstance, plan: CPULiveUpdate): Promise<boolean> {
  if (plan.kind === 'none') return false;
  if (plan.kind === 'restart') return true;
  const { namespace = 'default', name = '' } = vmi.metadata;
  await vmis.mergePatch(namespace, name, { spec: { domain: { cpu: { sockets: plan.sockets } } } });
  liveLog.info({ vmi: `${namespace}/${name}`, sockets: plan.sockets }, 'CPU sockets live-updated');
  return false;
}
