/**
 * PURE: CDI's DataSource (cdi.kubevirt.io/v1beta1) and its Ready condition, as CDI's DataSource
 * controller sets it: a PVC source is ready when a DataVolume of that name has Succeeded, or, with
 * no such DataVolume, when the PVC exists; a DataVolume still importing says its phase; a snapshot
 * source needs a VolumeSnapshot (not served here: never ready). status.source mirrors spec.source.
 */
import type { V1PersistentVolumeClaim } from '@kubernetes/client-node';
import { DVPhase, type DataVolume, type DataVolumeCondition } from './datavolume-types';

export const DATASOURCES = 'datasources';

export interface DataSourceSourceRef { name: string; namespace?: string }
export interface DataSourceSource { pvc?: DataSourceSourceRef; snapshot?: DataSourceSourceRef }

export interface DataSource {
  apiVersion?: string;
  kind?: string;
  metadata: { name?: string; namespace?: string; uid?: string; labels?: Record<string, string>; resourceVersion?: string; deletionTimestamp?: string };
  spec: { source: DataSourceSource };
  status?: { source?: DataSourceSource; conditions?: DataVolumeCondition[] };
}

/** CDI's words and reasons */
export const DataSourceReady = {
  ready: { status: 'True', reason: 'Ready', message: 'DataSource is ready to be consumed' },
  pvcNotFound: { status: 'False', reason: 'NotFound', message: 'PVC not found' },
  snapshotNotFound: { status: 'False', reason: 'NotFound', message: 'Snapshot not found' },
  noSource: { status: 'False', reason: 'NoSource', message: 'No source PVC set' },
} as const;

/** The namespace/name a DataSource's PVC source points at (its own namespace when it names none). */
export function pvcSourceKey(ds: DataSource): string | undefined {
  const pvc = ds.spec?.source?.pvc;
  return pvc?.name ? `${pvc.namespace || ds.metadata.namespace}/${pvc.name}` : undefined;
}

export interface DataSourceInputs {
  /** the DataVolume named like the source PVC, in its namespace */
  dv?: DataVolume;
  pvc?: V1PersistentVolumeClaim;
  now: string;
}

function readyCondition(ds: DataSource, { dv, pvc }: DataSourceInputs): { status: string; reason: string; message: string } {
  const source = ds.spec?.source ?? {};
  if (source.pvc?.name) {
    if (dv) return dv.status?.phase === DVPhase.Succeeded ? DataSourceReady.ready : { status: 'False', reason: dv.status?.phase ?? '', message: `Import DataVolume phase ${dv.status?.phase ?? ''}` };
    return pvc ? DataSourceReady.ready : DataSourceReady.pvcNotFound;
  }
  if (source.snapshot?.name) return DataSourceReady.snapshotNotFound;
  return DataSourceReady.noSource;
}

export function computeDataSourceStatus(ds: DataSource, inputs: DataSourceInputs): NonNullable<DataSource['status']> {
  // a changed source starts the conditions over, as CDI does
  const sameSource = JSON.stringify(ds.status?.source ?? null) === JSON.stringify(ds.spec?.source ?? null);
  const prior = sameSource ? ds.status?.conditions?.find((c) => c.type === 'Ready') : undefined;
  const c = readyCondition(ds, inputs);
  const unchanged = prior && prior.status === c.status && prior.reason === c.reason && prior.message === c.message;
  const ready: DataVolumeCondition = {
    type: 'Ready', ...c,
    lastTransitionTime: prior && prior.status === c.status ? prior.lastTransitionTime : inputs.now,
    lastHeartbeatTime: unchanged ? prior.lastHeartbeatTime : inputs.now,
  };
  return { source: ds.spec?.source, conditions: [ready] };
}
