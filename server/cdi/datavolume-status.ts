/**
 * PURE: a DataVolume's status from its claim and importer Pod (CDI's phases and its Bound, Running
 * and Ready conditions), as `kubectl get dv` and KubeVirt's VM status read them.
 */
import type { V1PersistentVolumeClaim, V1Pod } from '@kubernetes/client-node';
import { DVPhase, sourceKindOf, type DataVolume, type DataVolumeCondition, type DataVolumeStatus } from './datavolume-types';

export interface DataVolumeInputs {
  pvc?: V1PersistentVolumeClaim;
  pod?: V1Pod;
  /** the importer's progress ("45.12%"), where it can be read */
  progress?: string;
  /** an upload's outcome, reported by the upload endpoint */
  upload?: { ok: true } | { ok: false; message: string };
  /** a failure the controller saw (bad spec, claim conflict) */
  failure?: { reason: string; message: string };
  /** why nothing started yet (the sourceRef's DataSource is missing): the Running condition says it */
  waiting?: { reason: string; message: string };
  now: string;
}

function terminated(pod: V1Pod | undefined) {
  return pod?.status?.containerStatuses?.[0]?.state?.terminated;
}

function setCondition(conds: DataVolumeCondition[], c: Omit<DataVolumeCondition, 'lastTransitionTime' | 'lastHeartbeatTime'>, now: string): DataVolumeCondition[] {
  const prior = conds.find((x) => x.type === c.type);
  const lastTransitionTime = prior && prior.status === c.status ? prior.lastTransitionTime : now;
  const next = { ...c, lastTransitionTime, lastHeartbeatTime: prior && prior.status === c.status && prior.reason === c.reason && prior.message === c.message ? prior.lastHeartbeatTime : now };
  return [...conds.filter((x) => x.type !== c.type), next].sort((a, b) => ORDER.indexOf(a.type) - ORDER.indexOf(b.type));
}
const ORDER = ['Bound', 'Ready', 'Running'];

export function computeDataVolumeStatus(dv: DataVolume, inputs: DataVolumeInputs): DataVolumeStatus {
  const prior = dv.status ?? {};
  const clone = sourceKindOf(dv) === 'pvc';
  let conds = prior.conditions ?? [];
  const status: DataVolumeStatus = { ...prior, claimName: dv.metadata.name };
  const { pvc, pod, now } = inputs;
  const bound = pvc?.status?.phase === 'Bound';
  conds = setCondition(conds, pvc
    ? { type: 'Bound', status: bound ? 'True' : 'False', reason: bound ? 'Bound' : 'Pending', message: bound ? `PVC ${pvc.metadata?.name} Bound` : `PVC ${pvc.metadata?.name} Pending` }
    : { type: 'Bound', status: 'Unknown', reason: '', message: 'No PVC found' }, now);
  if (inputs.failure || prior.phase === DVPhase.Failed) {
    const f = inputs.failure ?? { reason: 'Error', message: prior.conditions?.find((c) => c.type === 'Running')?.message ?? '' };
    status.phase = DVPhase.Failed;
    conds = setCondition(conds, { type: 'Running', status: 'False', reason: f.reason, message: f.message }, now);
    conds = setCondition(conds, { type: 'Ready', status: 'False', reason: '', message: '' }, now);
    return { ...status, conditions: conds };
  }
  if (prior.phase === DVPhase.Succeeded) return { ...status, conditions: conds };
  if (sourceKindOf(dv) === 'upload') return uploadStatus(status, conds, inputs);
  const t = terminated(pod);
  if (t && t.exitCode === 0) {
    status.phase = DVPhase.Succeeded;
    status.progress = '100.0%';
    conds = setCondition(conds, { type: 'Running', status: 'False', reason: 'Completed', message: t.message ?? '' }, now);
    conds = setCondition(conds, { type: 'Ready', status: 'True', reason: '', message: '' }, now);
    return { ...status, conditions: conds };
  }
  if (t) {
    status.phase = DVPhase.Failed;
    conds = setCondition(conds, { type: 'Running', status: 'False', reason: 'Error', message: t.message ?? t.reason ?? 'importer failed' }, now);
    conds = setCondition(conds, { type: 'Ready', status: 'False', reason: '', message: '' }, now);
    return { ...status, conditions: conds };
  }
  const running = pod?.status?.phase === 'Running';
  status.phase = running ? (clone ? DVPhase.CloneInProgress : DVPhase.ImportInProgress) : pod ? (clone ? DVPhase.CloneScheduled : DVPhase.ImportScheduled) : DVPhase.Pending;
  status.progress = running ? inputs.progress ?? 'N/A' : 'N/A';
  const waiting = pod?.status?.containerStatuses?.[0]?.state?.waiting ?? (pod ? undefined : inputs.waiting);
  conds = setCondition(conds, running
    ? { type: 'Running', status: 'True', reason: 'Pod is running', message: '' }
    : { type: 'Running', status: 'False', reason: waiting?.reason ?? '', message: waiting?.message ?? '' }, now);
  conds = setCondition(conds, { type: 'Ready', status: 'False', reason: '', message: '' }, now);
  return { ...status, conditions: conds };
}

/** CDI's upload phases: UploadScheduled until the claim is bound and held, UploadReady, then the upload's outcome */
function uploadStatus(status: DataVolumeStatus, conds: DataVolumeCondition[], inputs: DataVolumeInputs): DataVolumeStatus {
  const { now, upload, pod, pvc } = inputs;
  if (upload?.ok) {
    conds = setCondition(conds, { type: 'Running', status: 'False', reason: 'Completed', message: 'Upload Complete' }, now);
    conds = setCondition(conds, { type: 'Ready', status: 'True', reason: '', message: '' }, now);
    return { ...status, phase: DVPhase.Succeeded, progress: '100.0%', conditions: conds };
  }
  if (upload && !upload.ok) {
    conds = setCondition(conds, { type: 'Running', status: 'False', reason: 'Error', message: upload.message }, now);
    conds = setCondition(conds, { type: 'Ready', status: 'False', reason: '', message: '' }, now);
    return { ...status, phase: DVPhase.Failed, conditions: conds };
  }
  const ready = pod?.status?.phase === 'Running' && pvc?.status?.phase === 'Bound';
  conds = setCondition(conds, ready ? { type: 'Running', status: 'True', reason: 'Pod is running', message: '' } : { type: 'Running', status: 'False', reason: '', message: '' }, now);
  conds = setCondition(conds, { type: 'Ready', status: 'False', reason: '', message: '' }, now);
  return { ...status, phase: ready ? DVPhase.UploadReady : DVPhase.UploadScheduled, progress: 'N/A', conditions: conds };
}

/** status equal but for heartbeat times: nothing to write */
export function sameStatus(a: DataVolumeStatus | undefined, b: DataVolumeStatus): boolean {
  const strip = (s: DataVolumeStatus | undefined) => JSON.stringify({ ...s, conditions: s?.conditions?.map(({ lastHeartbeatTime: _h, lastTransitionTime: _t, ...c }) => c) });
  return strip(a) === strip(b);
}
