/** CDI's DataVolume (cdi.kubevirt.io/v1beta1), the parts we read and write. */
import type { V1PersistentVolumeClaimSpec } from '@kubernetes/client-node';

export const CDI_GROUP = 'cdi.kubevirt.io';
export const CDI_VERSION = 'v1beta1';
export const DATAVOLUMES = 'datavolumes';

export interface DataVolumeSource {
  http?: { url: string; checksum?: string; secretRef?: string; certConfigMap?: string };
  registry?: { url?: string; imageStream?: string; pullMethod?: string };
  pvc?: { namespace?: string; name: string };
  upload?: Record<string, never>;
  blank?: Record<string, never>;
  [other: string]: unknown;
}

export interface DataVolumeCondition { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string; lastHeartbeatTime?: string }

export interface DataVolumeStatus {
  phase?: string;
  progress?: string;
  claimName?: string;
  restartCount?: number;
  conditions?: DataVolumeCondition[];
}

export interface DataVolume {
  apiVersion?: string;
  kind?: string;
  metadata: { name?: string; namespace?: string; uid?: string; labels?: Record<string, string>; annotations?: Record<string, string>; deletionTimestamp?: string; resourceVersion?: string; ownerReferences?: unknown[] };
  spec: {
    source?: DataVolumeSource;
    /** a DataSource to clone from instead of `source` */
    sourceRef?: { kind?: string; name?: string; namespace?: string };
    pvc?: V1PersistentVolumeClaimSpec;
    storage?: Partial<V1PersistentVolumeClaimSpec>;
    contentType?: string;
  };
  status?: DataVolumeStatus;
}

/** CDI's phases */
export const DVPhase = {
  Pending: 'Pending',
  PVCBound: 'PVCBound',
  ImportScheduled: 'ImportScheduled',
  ImportInProgress: 'ImportInProgress',
  CloneScheduled: 'CloneScheduled',
  CloneInProgress: 'CloneInProgress',
  UploadScheduled: 'UploadScheduled',
  UploadReady: 'UploadReady',
  WaitForFirstConsumer: 'WaitForFirstConsumer',
  Succeeded: 'Succeeded',
  Failed: 'Failed',
} as const;

export const IMPORTER_IMAGE = 'kubevirt-ts/cdi-importer:latest';
export const CDI_APP_LABEL = 'containerized-data-importer';
export type SourceKind = 'http' | 'blank' | 'pvc' | 'registry' | 'upload';

export function sourceKindOf(dv: DataVolume): SourceKind | undefined {
  const s = dv.spec?.source ?? {};
  for (const k of ['http', 'blank', 'pvc', 'registry', 'upload'] as const) if (s[k]) return k;
  return undefined;
}
