/**
 * PURE: a VMI's claim-backed volumes (persistentVolumeClaim, dataVolume, ephemeral), whether the
 * launcher Pod may be created yet (KubeVirt waits for DataVolumes to succeed and reports a missing
 * PVC as FailedPvcNotFound), and the volumeStatus entries virt-controller owns
 * (`persistentVolumeClaimInfo`, which the launcher sizes a new disk.img by).
 */
import type { V1PersistentVolumeClaim, V1Volume } from '@kubernetes/client-node';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import type { VMIVolumeStatus } from '../../../lib/kubevirt/vmi-types';
import { Reason } from './constants';
import { BACKEND_STORAGE_VOLUME, backendStorageClaimName, usesPersistentState } from '../../../lib/kubevirt/backend-storage';

export interface ClaimVolume { volume: string; claimName: string; dataVolume: boolean; readOnly: boolean; hotpluggable: boolean }

export interface DataVolumeLike { metadata?: { name?: string; namespace?: string }; status?: { phase?: string; progress?: string; conditions?: { type?: string; status?: string; reason?: string; message?: string }[] } }

export interface ClaimLookup {
  claim(namespace: string, name: string): V1PersistentVolumeClaim | undefined;
  dataVolume(namespace: string, name: string): DataVolumeLike | undefined;
}

/** The VMI's claims, and its backend storage claim when it has a persistent TPM or EFI (virt-controller creates that one). */
export function claimVolumes(vmi: VirtualMachineInstance): ClaimVolume[] {
  const backend: ClaimVolume[] = usesPersistentState(vmi.spec)
    ? [{ volume: BACKEND_STORAGE_VOLUME, claimName: backendStorageClaimName(vmi.metadata.name ?? ''), dataVolume: false, readOnly: false, hotpluggable: false }]
    : [];
  return [...specClaimVolumes(vmi), ...backend];
}

function specClaimVolumes(vmi: VirtualMachineInstance): ClaimVolume[] {
  return (vmi.spec?.volumes ?? []).flatMap((v): ClaimVolume[] => {
    if (v.persistentVolumeClaim) return [{ volume: v.name, claimName: v.persistentVolumeClaim.claimName, dataVolume: false, readOnly: v.persistentVolumeClaim.readOnly === true, hotpluggable: v.persistentVolumeClaim.hotpluggable === true }];
    if (v.dataVolume) return [{ volume: v.name, claimName: v.dataVolume.name, dataVolume: true, readOnly: false, hotpluggable: v.dataVolume.hotpluggable === true }];
    if (v.ephemeral) return [{ volume: v.name, claimName: v.ephemeral.persistentVolumeClaim.claimName, dataVolume: false, readOnly: true, hotpluggable: false }];
    return [];
  });
}

export type ClaimReadiness = { ready: true } | { ready: false; reason?: string; message: string };

/** Whether every claim the launcher needs at start is there (hotplugged ones come later). */
export function claimsReadiness(vmi: VirtualMachineInstance, lookup: ClaimLookup): ClaimReadiness {
  const ns = vmi.metadata.namespace ?? 'default';
  for (const c of claimVolumes(vmi).filter((v) => !v.hotpluggable)) {
    const dv = c.dataVolume ? lookup.dataVolume(ns, c.claimName) : undefined;
    if (dv && dv.status?.phase !== 'Succeeded') {
      return { ready: false, message: `DataVolume ${ns}/${c.claimName} is not ready yet (phase ${dv.status?.phase || 'Pending'})` };
    }
    if (!lookup.claim(ns, c.claimName)) {
      if (c.dataVolume && !dv) return { ready: false, reason: Reason.FailedPvcNotFound, message: `DataVolume ${ns}/${c.claimName} does not exist, waiting for it to appear` };
      return { ready: false, reason: Reason.FailedPvcNotFound, message: `PVC ${ns}/${c.claimName} does not exist, waiting for it to appear` };
    }
  }
  return { ready: true };
}

/** The launcher Pod's volumes: one per claim, named as the VMI's volume (the kubelet links it by that name). */
export function launcherClaimVolumes(vmi: VirtualMachineInstance): V1Volume[] {
  return claimVolumes(vmi).filter((c) => !c.hotpluggable).map((c) => ({ name: c.volume, persistentVolumeClaim: { claimName: c.claimName, ...(c.readOnly ? { readOnly: true } : {}) } }));
}

/** volumeStatus with each claim's info merged in; entries other writers own are kept. */
export function withClaimVolumeStatus(current: VMIVolumeStatus[] | undefined, vmi: VirtualMachineInstance, lookup: ClaimLookup): VMIVolumeStatus[] | undefined {
  const ns = vmi.metadata.namespace ?? 'default';
  const byName = new Map((current ?? []).map((s) => [s.name, s]));
  for (const c of claimVolumes(vmi)) {
    const pvc = lookup.claim(ns, c.claimName);
    if (!pvc) continue;
    const info = {
      claimName: c.claimName,
      accessModes: pvc.status?.accessModes ?? pvc.spec?.accessModes,
      volumeMode: pvc.spec?.volumeMode ?? 'Filesystem',
      capacity: pvc.status?.capacity,
      requests: pvc.spec?.resources?.requests,
      filesystemOverhead: '0',
    };
    const prior = byName.get(c.volume);
    byName.set(c.volume, { ...(prior ?? { name: c.volume, target: '' }), persistentVolumeClaimInfo: info });
  }
  const out = [...byName.values()];
  return out.length ? out : undefined;
}
