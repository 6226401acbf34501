/**
 * The VMI controller's actions on the world (KubeVirt's watch/vmi sync): create the launcher Pod
 * once, delete Pods when the VMI is deleted or final. Returns a SyncError instead of throwing.
 */
import type { KubernetesObject, V1Pod } from '@kubernetes/client-node';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import { isNotFound, messageOf } from '../../kube/api-errors';
import type { KubeClients } from '../../kube/clients';
import { toDeleteBody } from '../../kube/clients';
import { SyncError } from '../../kube/controller';
import { EventTypeNormal, EventTypeWarning, type EventRecorder } from '../../kube/events';
import type { Expectations } from '../../kube/expectations';
import { checkImages, type ImageExists } from './check-images';
import { isFinal } from './compute-status';
import { Phase, Reason } from './constants';
import { isPodDown, isPodTerminating } from './pod-state';
import { renderLauncherPod, type RenderOptions } from './render-launcher-pod';
import type { ClaimReadiness } from './claim-volumes';

export interface SyncDeps {
  clients: Pick<KubeClients, 'core'>;
  recorder: Pick<EventRecorder, 'record'>;
  expectations: Expectations;
  imageExists?: ImageExists;
  render?: RenderOptions;
  /** whether the VMI's claims let its launcher start (claim-volumes.ts); always ready when unset */
  claimsReady?: () => ClaimReadiness;
}

/** lib/kubevirt's metadata carries timestamps as strings; client-node's as Date: same JSON. */
export const asKube = (vmi: VirtualMachineInstance) => vmi as unknown as KubernetesObject;

/** Retry delay for a missing image (ImagePullBackOff-like, without the exponential part). */
export const IMAGE_RETRY_MS = 5_000;

export interface SyncResult { error?: SyncError; created?: V1Pod }

async function createLauncherPod(deps: SyncDeps, key: string, vmi: VirtualMachineInstance): Promise<SyncResult> {
  const missing = checkImages(vmi, deps.imageExists);
  if (missing) {
    void deps.recorder.record(asKube(vmi), EventTypeWarning, missing.reason, missing.message);
    return { error: new SyncError(missing.reason, missing.message) };
  }
  const claims = deps.claimsReady?.() ?? { ready: true };
  if (!claims.ready) {
    if (!claims.reason) return {}; // a DataVolume still filling: its status change syncs us again
    void deps.recorder.record(asKube(vmi), EventTypeWarning, claims.reason, claims.message);
    return { error: new SyncError(claims.reason, claims.message) };
  }
  const pod = renderLauncherPod(vmi, deps.render);
  deps.expectations.expectCreations(key, 1);
  try {
    const created = await deps.clients.core.createNamespacedPod({ namespace: vmi.metadata.namespace ?? 'default', body: pod });
    void deps.recorder.record(asKube(vmi), EventTypeNormal, Reason.SuccessfulCreate, `Created virtual machine pod ${created.metadata?.name}`);
    return { created };
  } catch (err) {
    deps.expectations.lowerExpectations(key, 1);
    const message = `Error creating pod: ${messageOf(err)}`;
    void deps.recorder.record(asKube(vmi), EventTypeWarning, Reason.FailedCreate, message);
    return { error: new SyncError(Reason.FailedCreate, message) };
  }
}

async function deleteLauncherPods(deps: SyncDeps, key: string, vmi: VirtualMachineInstance, pods: V1Pod[]): Promise<SyncError | undefined> {
  const targets = pods.filter((p) => !isPodTerminating(p));
  if (!targets.length) return undefined;
  deps.expectations.expectDeletions(key, targets.map((p) => p.metadata!.uid!));
  for (const pod of targets) {
    const { name, namespace, uid } = pod.metadata!;
    try {
      await deps.clients.core.deleteNamespacedPod({ name: name!, namespace: namespace!, body: toDeleteBody({ uid }) });
      void deps.recorder.record(asKube(vmi), EventTypeNormal, Reason.SuccessfulDelete, `Deleted virtual machine pod ${name}`);
    } catch (err) {
      deps.expectations.deletionObserved(key, uid);
      if (isNotFound(err)) continue;
      const message = `Error deleting pod ${name}: ${messageOf(err)}`;
      void deps.recorder.record(asKube(vmi), EventTypeWarning, Reason.FailedDelete, message);
      return new SyncError(Reason.FailedDelete, message);
    }
  }
  return undefined;
}

/**
 * One level-triggered step for the VMI; the status is computed afterwards from the same inputs
 * (plus the Pod it just created, so the VMI reaches Scheduling without waiting for the watch).
 */
export async function syncLauncherPod(deps: SyncDeps, key: string, vmi: VirtualMachineInstance, pods: V1Pod[]): Promise<SyncResult> {
  const phase = vmi.status?.phase ?? Phase.Unset;
  if (vmi.metadata.deletionTimestamp) return { error: await deleteLauncherPods(deps, key, vmi, pods) };
  // a final VMI keeps no running launcher (the handler normally lets it exit on its own)
  if (isFinal(phase)) return { error: await deleteLauncherPods(deps, key, vmi, pods.filter((p) => !isPodDown(p))) };
  const needsPod = (phase === Phase.Unset || phase === Phase.Pending) && pods.length === 0;
  return needsPod ? createLauncherPod(deps, key, vmi) : {};
}
