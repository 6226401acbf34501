/**
 * One pool sync's writes: release VMs whose labels moved away, create the missing ordinals, delete
 * the scale-in victims; creates and deletes are counted in the expectations first.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import type { VirtualMachine, VirtualMachinePool } from '../../../lib/kubevirt';
import { isNotFound, messageOf } from '../../kube/api-errors';
import type { CustomResourceClient } from '../../kube/clients';
import { EventTypeNormal, EventTypeWarning, type EventRecorder } from '../../kube/events';
import type { Expectations } from '../../kube/expectations';
import { ordinalOf, type PoolPlan } from './plan-pool';
import type { PoolFailure } from './pool-status';
import { renderPoolVM } from './render-pool-vm';
import { PoolReason } from './constants';

const kube = (o: object) => o as unknown as KubernetesObject;

export interface PoolSyncDeps {
  vms: CustomResourceClient<KubernetesObject>;
  recorder: EventRecorder;
  expectations: Expectations;
}

async function release(deps: PoolSyncDeps, pool: VirtualMachinePool, vms: VirtualMachine[]): Promise<void> {
  for (const vm of vms) {
    const refs = (vm.metadata.ownerReferences ?? []).filter((r) => r.uid !== pool.metadata.uid);
    await deps.vms.mergePatch(vm.metadata.namespace!, vm.metadata.name!, { metadata: { ownerReferences: refs, uid: vm.metadata.uid } })
      .catch((err) => { if (!isNotFound(err)) throw err; });
  }
}

async function scaleOut(deps: PoolSyncDeps, key: string, pool: VirtualMachinePool, names: string[]): Promise<PoolFailure | undefined> {
  deps.expectations.raiseExpectations(key, names.length, 0);
  const errors = await Promise.all(names.map(async (name) => {
    try {
      await deps.vms.create(pool.metadata.namespace!, kube(renderPoolVM(pool, name, ordinalOf(name) ?? 0)));
      void deps.recorder.record(kube(pool), EventTypeNormal, PoolReason.SuccessfulCreate, `Created VM ${pool.metadata.namespace}/${name}`);
      return undefined;
    } catch (err) {
      deps.expectations.lowerExpectations(key, 1);
      return messageOf(err);
    }
  }));
  const first = errors.find((e) => e !== undefined);
  if (first === undefined) return undefined;
  void deps.recorder.record(kube(pool), EventTypeWarning, PoolReason.FailedCreate, `Error creating VM: ${first}`);
  return { reason: PoolReason.FailedScaleOut, message: `error during scale out: ${first}` };
}

async function scaleIn(deps: PoolSyncDeps, key: string, pool: VirtualMachinePool, victims: VirtualMachine[]): Promise<PoolFailure | undefined> {
  deps.expectations.expectDeletions(key, victims.map((v) => v.metadata.uid!));
  const errors = await Promise.all(victims.map(async (vm) => {
    const where = `${vm.metadata.namespace}/${vm.metadata.name}`;
    try {
      await deps.vms.delete(vm.metadata.namespace!, vm.metadata.name!);
      void deps.recorder.record(kube(pool), EventTypeNormal, PoolReason.SuccessfulDelete, `Deleted VM ${where} with uid ${vm.metadata.uid} from pool`);
      return undefined;
    } catch (err) {
      deps.expectations.deletionObserved(key, vm.metadata.uid);
      if (isNotFound(err)) return undefined;
      void deps.recorder.record(kube(pool), EventTypeWarning, PoolReason.FailedDelete, `Error deleting virtual machine ${where}: ${messageOf(err)}`);
      return messageOf(err);
    }
  }));
  const first = errors.find((e) => e !== undefined);
  return first === undefined ? undefined : { reason: PoolReason.FailedScaleIn, message: `error during scale in: ${first}` };
}

export async function syncPool(deps: PoolSyncDeps, key: string, pool: VirtualMachinePool, plan: PoolPlan): Promise<PoolFailure | undefined> {
  await release(deps, pool, plan.release);
  if (plan.create.length) return scaleOut(deps, key, pool, plan.create);
  if (plan.remove.length) return scaleIn(deps, key, pool, plan.remove);
  return undefined;
}
