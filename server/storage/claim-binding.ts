/**
 * PURE: what kube's PV controller does next for one claim (pkg/controller/volume/persistentvolume,
 * reduced): keep a bound claim bound, bind to a matching static volume, ask the provisioner, or wait.
 */
import type { V1PersistentVolume, V1PersistentVolumeClaim, V1StorageClass } from '@kubernetes/client-node';
import { parseQuantity } from '../../lib/kubevirt/quantity';
import { PROVISIONER, StorageAnnotation, StorageReason } from './constants';

export type ClaimAction =
  | { kind: 'none' }
  | { kind: 'bind'; pv: V1PersistentVolume }
  | { kind: 'provision'; node?: string; sc: V1StorageClass }
  | { kind: 'lost'; message: string }
  | { kind: 'wait'; reason: string; message: string; warning?: boolean };

export interface ClaimContext {
  pvs: V1PersistentVolume[];
  classes: Map<string, V1StorageClass>;
}

export const requestedBytes = (pvc: V1PersistentVolumeClaim): number => parseQuantity(pvc.spec?.resources?.requests?.storage) ?? 0;
export const capacityBytes = (pv: V1PersistentVolume): number => parseQuantity(pv.spec?.capacity?.storage) ?? 0;

export function classOfClaim(pvc: V1PersistentVolumeClaim): string {
  return pvc.spec?.storageClassName ?? pvc.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? '';
}

/** a PV that names this claim (by UID once bound, by namespace/name when pre-bound by the user) */
function claimRefMatches(pv: V1PersistentVolume, pvc: V1PersistentVolumeClaim): boolean {
  const ref = pv.spec?.claimRef;
  if (!ref) return false;
  if (ref.namespace !== pvc.metadata?.namespace || ref.name !== pvc.metadata?.name) return false;
  return !ref.uid || ref.uid === pvc.metadata?.uid;
}

/** kube's findBestMatchForClaim: the smallest Available volume of the claim's class that satisfies it */
export function findMatchingVolume(pvc: V1PersistentVolumeClaim, pvs: V1PersistentVolume[]): V1PersistentVolume | undefined {
  const want = requestedBytes(pvc);
  const modes = pvc.spec?.accessModes ?? [];
  const volumeMode = pvc.spec?.volumeMode ?? 'Filesystem';
  const cls = classOfClaim(pvc);
  const fits = pvs.filter((pv) => {
    if (pv.metadata?.deletionTimestamp) return false;
    if (pv.spec?.claimRef && !claimRefMatches(pv, pvc)) return false;
    if (!pv.spec?.claimRef && pv.status?.phase !== 'Available' && pv.status?.phase !== 'Pending') return false;
    if ((pv.spec?.storageClassName ?? '') !== cls) return false;
    if ((pv.spec?.volumeMode ?? 'Filesystem') !== volumeMode) return false;
    if (!modes.every((m) => pv.spec?.accessModes?.includes(m))) return false;
    return capacityBytes(pv) >= want;
  });
  const prebound = fits.find((pv) => pv.spec?.claimRef);
  return prebound ?? fits.sort((a, b) => capacityBytes(a) - capacityBytes(b))[0];
}

export function planClaim(pvc: V1PersistentVolumeClaim, ctx: ClaimContext): ClaimAction {
  if (pvc.metadata?.deletionTimestamp) return { kind: 'none' };
  const volumeName = pvc.spec?.volumeName;
  if (volumeName) {
    const pv = ctx.pvs.find((v) => v.metadata?.name === volumeName);
    if (!pv) return pvc.status?.phase === 'Bound' ? { kind: 'lost', message: 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!' } : { kind: 'wait', reason: 'VolumeMissing', message: `volume "${volumeName}" not found` };
    if (pv.spec?.claimRef && !claimRefMatches(pv, pvc)) return { kind: 'wait', reason: 'VolumeMismatch', message: `volume "${volumeName}" already bound to a different claim.`, warning: true };
    return pvc.status?.phase === 'Bound' && pv.status?.phase === 'Bound' ? { kind: 'none' } : { kind: 'bind', pv };
  }
  const match = findMatchingVolume(pvc, ctx.pvs);
  if (match) return { kind: 'bind', pv: match };
  const clsName = classOfClaim(pvc);
  if (!clsName) return { kind: 'wait', reason: 'FailedBinding', message: 'no persistent volumes available for this claim and no storage class is set', warning: false };
  const sc = ctx.classes.get(clsName);
  if (!sc) return { kind: 'wait', reason: StorageReason.ProvisioningFailed, message: `storageclass.storage.k8s.io "${clsName}" not found`, warning: true };
  if (sc.provisioner !== PROVISIONER) {
    return { kind: 'wait', reason: StorageReason.ExternalProvisioning, message: `Waiting for a volume to be created either by the external provisioner '${sc.provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.` };
  }
  const node = pvc.metadata?.annotations?.[StorageAnnotation.SelectedNode];
  if (sc.volumeBindingMode === 'WaitForFirstConsumer' && !node) {
    return { kind: 'wait', reason: StorageReason.WaitForFirstConsumer, message: 'waiting for first consumer to be created before binding' };
  }
  return { kind: 'provision', node, sc };
}

/** The claim fields a binding writes (spec.volumeName and kube's bind annotations). */
export function boundClaimPatch(pvc: V1PersistentVolumeClaim, pv: V1PersistentVolume): object {
  const annotations: Record<string, string> = { [StorageAnnotation.BindCompleted]: 'yes' };
  if (!pvc.spec?.volumeName) annotations[StorageAnnotation.BoundByController] = 'yes';
  return { metadata: { annotations }, spec: { volumeName: pv.metadata?.name } };
}

export function boundClaimStatus(pv: V1PersistentVolume): object {
  return { phase: 'Bound', accessModes: pv.spec?.accessModes, capacity: { storage: pv.spec?.capacity?.storage } };
}
