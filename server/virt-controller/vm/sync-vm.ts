/**
 * Acts on the world for one VM (KubeVirt's syncRunStrategy / startVMI / stopVMI): creates or deletes
 * its VMI as the run strategy says, with expectations so a lagging cache never duplicates a VMI.
 * Never throws for API failures: returns them as a sync error for the Failure condition.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { isLiveUpdate, StateChangeAction, type KubeVirtConfiguration } from '../../../lib/kubevirt';
import type { VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';
import { isNotFound, messageOf } from '../../kube/api-errors';
import type { CustomResourceClient } from '../../kube/clients';
import { EventTypeNormal, EventTypeWarning, type EventRecorder } from '../../kube/events';
import type { Expectations } from '../../kube/expectations';
import { log } from '../../log';
import { EventReason, FailureReason, startedMessage, stoppedMessage } from './constants';
import { renderVMI } from './render-vmi';
import { withHotplugRoom } from './live-update';
import { expandForStart, usesInstancetype, type ExpansionDeps } from './instancetype-expansion';
import type { RevisionStore } from './revisions';
import { decideRunAction } from './run-strategy-action';
import type { VMSyncError } from './vm-conditions';
import { setRunningPatch } from './write-vm';

const syncLog = log.child({ component: 'vm-controller' });

export interface SyncDeps {
  vms: Pick<CustomResourceClient<KubernetesObject>, 'jsonPatch'>;
  vmis: Pick<CustomResourceClient<KubernetesObject>, 'create' | 'delete' | 'mergePatchStatus'>;
  revisions: Pick<RevisionStore, 'createFor'>;
  recorder: Pick<EventRecorder, 'record'>;
  expectations: Expectations;
  /** instance types and preferences (absent: a VM naming one fails to start with a clear error) */
  expansion?: ExpansionDeps;
  /** the KubeVirt CR's configuration: under vmRolloutStrategy LiveUpdate a new VMI gets room for hot-added CPU sockets */
  configuration?: () => KubeVirtConfiguration;
}

export interface SyncResult {
  syncError?: VMSyncError;
  /** Requeue after this many ms (crash-loop backoff). */
  retryAfterMs?: number;
  /** A Start request to queue (RerunOnFailure after a failure). */
  appendStart?: boolean;
}

export async function syncVM(deps: SyncDeps, key: string, vm: VirtualMachine, vmi: VirtualMachineInstance | undefined): Promise<SyncResult> {
  if (vm.metadata.deletionTimestamp) {
    return vmi && !vmi.metadata.deletionTimestamp ? deleteVMI(deps, key, vm, vmi) : {};
  }
  const action = decideRunAction(vm, vmi, new Date());
  switch (action.type) {
    case 'create':
      return createVMI(deps, key, vm, action.paused);
    case 'wait':
      return { retryAfterMs: action.afterMs };
    case 'delete':
      return deleteVMI(deps, key, vm, vmi!);
    case 'delete-and-request-start':
      return { ...(await deleteVMI(deps, key, vm, vmi!)), appendStart: true };
    case 'set-running':
      return setRunning(deps, vm);
    case 'invalid':
      return { syncError: { reason: FailureReason.InvalidRunStrategy, message: action.message } };
    default:
      return {};
  }
}

async function createVMI(deps: SyncDeps, key: string, vm: VirtualMachine, paused: boolean): Promise<SyncResult> {
  const namespace = vm.metadata.namespace ?? 'default';
  try {
    let started = vm;
    if (usesInstancetype(vm)) {
      if (!deps.expansion) throw new Error('this virt-controller cannot expand instance types');
      started = await expandForStart(deps.expansion, vm);
    }
    const rendered = renderVMI(started, { paused });
    const config = deps.configuration?.();
    const body = isLiveUpdate(config) ? withHotplugRoom(rendered, config?.liveUpdateConfiguration) : rendered;
    const revisionName = await deps.revisions.createFor(vm);
    deps.expectations.expectCreations(key, 1);
    let created: VirtualMachineInstance;
    try {
      created = await deps.vmis.create(namespace, body as KubernetesObject) as VirtualMachineInstance;
    } catch (err) {
      deps.expectations.lowerExpectations(key, 1);
      throw err;
    }
    void deps.recorder.record(vm as KubernetesObject, EventTypeNormal, EventReason.SuccessfulCreate, startedMessage(created.metadata.name ?? ''));
    syncLog.info({ vm: key, vmi: created.metadata.uid, paused }, 'created VMI');
    await deps.vmis.mergePatchStatus(namespace, created.metadata.name ?? '', { status: { virtualMachineRevisionName: revisionName } })
      .catch((err) => syncLog.debug({ vm: key, err: messageOf(err) }, 'could not record revision name'));
    return {};
  } catch (err) {
    const message = messageOf(err);
    void deps.recorder.record(vm as KubernetesObject, EventTypeWarning, EventReason.FailedCreate, `Error creating virtual machine instance: ${message}`);
    return { syncError: { reason: FailureReason.FailedCreate, message } };
  }
}

async function deleteVMI(deps: SyncDeps, key: string, vm: VirtualMachine, vmi: VirtualMachineInstance): Promise<SyncResult> {
  const uid = vmi.metadata.uid ?? '';
  deps.expectations.expectDeletions(key, [uid]);
  try {
    await deps.vmis.delete(vmi.metadata.namespace ?? 'default', vmi.metadata.name ?? '', { uid });
  } catch (err) {
    deps.expectations.deletionObserved(key, uid);
    if (isNotFound(err)) return {};
    const message = messageOf(err);
    void deps.recorder.record(vm as KubernetesObject, EventTypeWarning, EventReason.FailedDelete, `Error deleting virtual machine instance ${uid}: ${message}`);
    return { syncError: { reason: FailureReason.FailedDelete, message } };
  }
  void deps.recorder.record(vm as KubernetesObject, EventTypeNormal, EventReason.SuccessfulDelete, stoppedMessage(uid));
  syncLog.info({ vm: key, vmi: uid }, 'deleted VMI');
  return {};
}

async function setRunning(deps: SyncDeps, vm: VirtualMachine): Promise<SyncResult> {
  try {
    await deps.vms.jsonPatch(vm.metadata.namespace ?? 'default', vm.metadata.name ?? '', setRunningPatch(vm));
    return {};
  } catch (err) {
    return { syncError: { reason: FailureReason.FailedUpdate, message: messageOf(err) } };
  }
}

/** The VM with a Start request queued behind what is already there (in memory, for the status write). */
export function withStartAppended(vm: VirtualMachine): VirtualMachine {
  const reqs = [...(vm.status?.stateChangeRequests ?? []), { action: StateChangeAction.Start }];
  return { ...vm, status: { ...vm.status, stateChangeRequests: reqs } };
}
