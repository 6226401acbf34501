/**
 * virt-handler's part of volume hotplug: the hot-plugged claims whose attachment Pod runs on this
 * node are handed to the launcher (as the attachment Pod's kubelet linked them), the rest are
 * detached; volumeStatus says Ready with the guest-side target once the disk is in.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { VirtualMachineInstance } from '../../lib/kubevirt';
import type { VMIVolumeStatus } from '../../lib/kubevirt/vmi-types';
import { parseQuantity } from '../../lib/kubevirt/quantity';
import type { HotplugDisk } from '../virt-launcher/protocol';
import { podDirOf } from './pod-dir';

const ATTACHED = new Set(['AttachedToNode', 'Ready']);

/** PURE but for a stat: the disks the launcher should have now. */
export function wantedHotplugDisks(vmi: VirtualMachineInstance, dataDir: string, node: string): HotplugDisk[] {
  const volumes = new Map((vmi.spec.volumes ?? []).map((v) => [v.name, v]));
  const disks = new Map((vmi.spec.domain.devices?.disks ?? []).map((d) => [d.name, d]));
  const out: HotplugDisk[] = [];
  for (const s of vmi.status?.volumeStatus ?? []) {
    const vol = volumes.get(s.name);
    const uid = s.hotplugVolume?.attachPodUID as string | undefined;
    if (!vol || !uid || !ATTACHED.has(s.phase ?? '')) continue;
    const path = join(podDirOf(dataDir, node, uid), 'volumes', s.name);
    let block: boolean;
    try {
      block = !statSync(path).isDirectory();
    } catch {
      continue; // the attachment Pod's kubelet has not linked it yet
    }
    out.push({
      name: s.name, path, block,
      capacityBytes: parseQuantity(s.persistentVolumeClaimInfo?.capacity?.storage),
      readOnly: vol.persistentVolumeClaim?.readOnly === true,
      serial: disks.get(s.name)?.serial,
    });
  }
  return out;
}

/** volumeStatus after the launcher answered with what is attached. */
export function withAttachedDisks(current: VMIVolumeStatus[] | undefined, vmi: VirtualMachineInstance, attached: { name: string; target: string }[]): VMIVolumeStatus[] | undefined {
  const inSpec = new Set((vmi.spec.volumes ?? []).map((v) => v.name));
  const byName = new Map(attached.map((a) => [a.name, a.target]));
  const out = (current ?? []).flatMap((s): VMIVolumeStatus[] => {
    if (!s.hotplugVolume) return [s];
    const target = byName.get(s.name);
    if (!inSpec.has(s.name) && target === undefined) return []; // detached: gone
    if (target === undefined) return [s];
    return [{ ...s, target, phase: 'Ready', reason: 'VolumeReady', message: `Successfully attach hotplugged volume ${s.name} to VM` }];
  });
  return out.length ? out : undefined;
}

export function hasHotplugWork(vmi: VirtualMachineInstance): boolean {
  return (vmi.status?.volumeStatus ?? []).some((s) => s.hotplugVolume) || (vmi.spec.volumes ?? []).some((v) => v.persistentVolumeClaim?.hotpluggable || v.dataVolume?.hotpluggable);
}
