/**
 * PURE: `status.volumeStatus` as KubeVirt's virt-handler keeps it for a running domain: one entry per
 * volume of the spec (what other writers put there — claim info, hotplug state — kept), each with
 * the target device its disk has (`vda`, `sdb`, …; lib/kubevirt/disk-targets.ts), sorted by name.
 * A hot-plugged volume gets its target once it is attached (phase Ready), as in KubeVirt.
 */
import type { VirtualMachineInstance } from '../../lib/kubevirt';
import type { VMIVolumeStatus } from '../../lib/kubevirt/vmi-types';
import { diskTargets } from '../../lib/kubevirt/disk-targets';

export function withVolumeTargets(current: VMIVolumeStatus[] | undefined, vmi: VirtualMachineInstance): VMIVolumeStatus[] | undefined {
  const byName = new Map((current ?? []).map((s) => [s.name, s]));
  const known = Object.fromEntries((current ?? []).filter((s) => s.target).map((s) => [s.name, s.target]));
  const targets = diskTargets(vmi.spec.domain.devices?.disks ?? [], known);
  for (const v of vmi.spec.volumes ?? []) {
    const prior = byName.get(v.name);
    const attached = !prior?.hotplugVolume || prior.phase === 'Ready';
    byName.set(v.name, { ...(prior ?? { name: v.name }), target: attached ? targets.get(v.name) ?? '' : '' });
  }
  const out = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out.length ? out : undefined;
}
