/**
 * DataVolume and PVC state as the VM's printable status reads it (KubeVirt storagetypes).
 * CDI objects are typed loosely: only phase and conditions matter here.
 */
import type { Condition } from './meta';
import type { Volume } from './vmi-spec-types';

export interface DataVolumeLike {
  metadata: { name?: string; namespace?: string };
  status?: { phase?: string; conditions?: Condition[] };
}

export interface PersistentVolumeClaimLike {
  metadata: { name?: string; namespace?: string };
  status?: { phase?: string };
}

const DV_SUCCEEDED = 'Succeeded';
const DV_FAILED = 'Failed';
const DV_PENDING_POPULATION = 'PendingPopulation';
const DV_WAIT_FOR_FIRST_CONSUMER = 'WaitForFirstConsumer';
const DV_ERROR_REASONS = ['Error', 'ImagePullFailed'];
const PVC_BOUND = 'Bound';

function dataVolumesOf(volumes: Volume[] | undefined, dvs: DataVolumeLike[]): DataVolumeLike[] {
  const names = new Set((volumes ?? []).map((v) => v.dataVolume?.name).filter((n): n is string => !!n));
  return dvs.filter((dv) => dv.metadata.name !== undefined && names.has(dv.metadata.name));
}

function conditionOf(dv: DataVolumeLike, type: string): Condition | undefined {
  return dv.status?.conditions?.find((c) => c.type === type);
}

/** A DataVolume a volume refers to has failed, or its importer stopped with an error. */
export function hasDataVolumeError(volumes: Volume[] | undefined, dvs: DataVolumeLike[]): boolean {
  return dataVolumesOf(volumes, dvs).some((dv) => {
    if (dv.status?.phase === DV_FAILED) return true;
    const running = conditionOf(dv, 'Running');
    return running?.status === 'False' && DV_ERROR_REASONS.includes(running.reason ?? '');
  });
}

/** A DataVolume a volume refers to is still being provisioned (WaitForFirstConsumer and unbound is not). */
export function hasDataVolumeProvisioning(volumes: Volume[] | undefined, dvs: DataVolumeLike[]): boolean {
  return dataVolumesOf(volumes, dvs).some((dv) => {
    const phase = dv.status?.phase;
    if (phase === DV_SUCCEEDED || phase === DV_PENDING_POPULATION) return false;
    const bound = conditionOf(dv, 'Bound')?.status === 'True';
    return bound || phase !== DV_WAIT_FOR_FIRST_CONSUMER;
  });
}

/** Name of the PVC a volume is backed by, if any. */
export function claimNameOf(v: Volume): string | undefined {
  return v.persistentVolumeClaim?.claimName ?? v.dataVolume?.name ?? v.ephemeral?.persistentVolumeClaim?.claimName;
}

/** Some existing PVC a volume refers to is not Bound. */
export function hasUnboundPVC(volumes: Volume[] | undefined, pvcs: PersistentVolumeClaimLike[]): boolean {
  const byName = new Map(pvcs.map((p) => [p.metadata.name, p]));
  return (volumes ?? []).some((v) => {
    const name = claimNameOf(v);
    const pvc = name ? byName.get(name) : undefined;
    return !!pvc && pvc.status?.phase !== PVC_BOUND;
  });
}
