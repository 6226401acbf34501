/**
 * The VirtualMachinePool controller, wired (KubeVirt's pkg/virt-controller/watch/pool): informers
 * on pools and VMs enqueue the pool's `namespace/name`; `execute` plans from the caches, acts and
 * writes the status once. The VMs it creates are run by the VM controller like any other.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { sameJSON, VirtualMachinePoolResource, selectorMatches, ReplicaSetConditionType } from '../../../lib/kubevirt';
import type { VirtualMachine, VirtualMachinePool } from '../../../lib/kubevirt';
import { CustomResourceClient, type KubeClients } from '../../kube/clients';
import { Controller, controllerOwnerKey } from '../../kube/controller';
import { EventTypeNormal, EventTypeWarning, type EventRecorder } from '../../kube/events';
import { Expectations } from '../../kube/expectations';
import { Informer } from '../../kube/informer';
import { collectionPath, keyOf, VirtualMachineResource } from '../../kube/resources';
import { isNotFound } from '../../kube/api-errors';
import { POOL_KIND, PoolReason } from './constants';
import { planPool } from './plan-pool';
import { computePoolStatus, type PoolStatus } from './pool-status';
import { syncPool } from './sync-pool';

export interface PoolControllerOptions {
  clients: KubeClients;
  recorder: EventRecorder;
  workers?: number;
}

const asPool = (o: KubernetesObject) => o as unknown as VirtualMachinePool;
const asVM = (o: KubernetesObject) => o as unknown as VirtualMachine;
const has = (s: PoolStatus | undefined, type: string) => (s?.conditions ?? []).some((c) => c.type === type);

export class PoolController {
  readonly pools: Informer<KubernetesObject>;
  readonly vms: Informer<KubernetesObject>;
  readonly expectations = new Expectations();
  private readonly controller: Controller;
  private readonly client: CustomResourceClient<KubernetesObject>;

  constructor(private readonly opts: PoolControllerOptions) {
    const kc = opts.clients.kc;
    this.client = new CustomResourceClient(opts.clients.custom, VirtualMachinePoolResource);
    this.pools = new Informer({ kc, path: collectionPath(VirtualMachinePoolResource) });
    this.vms = new Informer({ kc, path: collectionPath(VirtualMachineResource) });
    this.controller = new Controller({ name: 'pool-controller', execute: (key) => this.execute(key), informers: [this.pools, this.vms], workers: opts.workers ?? 2 });
    this.pools.on({
      ...this.controller.enqueueHandlers(),
      delete: (p) => { this.expectations.deleteExpectations(keyOf(p)); this.controller.enqueue(p); },
    });
    this.vms.on({
      add: (vm) => this.onVM(vm, (key) => this.expectations.creationObserved(key)),
      update: (old, vm) => this.onVM(vm, vm.metadata?.deletionTimestamp && !old.metadata?.deletionTimestamp ? (key) => this.expectations.deletionObserved(key, vm.metadata?.uid) : undefined),
      delete: (vm) => this.onVM(vm, (key) => this.expectations.deletionObserved(key, vm.metadata?.uid)),
    });
  }

  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([this.pools.run(signal), this.vms.run(signal), this.controller.run(signal)]);
  }

  private onVM(vm: KubernetesObject, observe?: (key: string) => void): void {
    const key = controllerOwnerKey(vm, POOL_KIND);
    if (!key) return;
    observe?.(key);
    this.controller.enqueue(key);
  }

  async execute(key: string): Promise<void> {
    const obj = this.pools.get(key);
    if (!obj) {
      this.expectations.deleteExpectations(key);
      return;
    }
    const pool = asPool(obj);
    const template = pool.spec?.virtualMachineTemplate;
    // KubeVirt: a selector that does not match the template is left alone, not retried
    if (!template || !selectorMatches(pool.spec.selector, template.metadata?.labels)) return;
    const vms = this.vms.list((v) => v.metadata?.namespace === pool.metadata.namespace).map(asVM);
    const plan = planPool(pool, vms, this.expectations.satisfied(key));
    const failure = await syncPool({ vms: this.opts.clients.vms, recorder: this.opts.recorder, expectations: this.expectations }, key, pool, plan);
    await this.writeStatus(pool, computePoolStatus(pool, plan.owned, failure, new Date()));
    if (failure) throw new Error(failure.message);
  }

  private async writeStatus(pool: VirtualMachinePool, status: PoolStatus): Promise<void> {
    const old = pool.status ?? {};
    if (sameJSON({ ...status, conditions: status.conditions ?? [] }, { ...old, conditions: old.conditions ?? [] })) return;
    try {
      await this.client.mergePatchStatus(pool.metadata.namespace!, pool.metadata.name!, { status: { ...status, conditions: status.conditions ?? null } });
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    const obj = pool as unknown as KubernetesObject;
    const failure = (status.conditions ?? []).find((c) => c.type === ReplicaSetConditionType.ReplicaFailure);
    if (failure && !has(old, ReplicaSetConditionType.ReplicaFailure)) void this.opts.recorder.record(obj, EventTypeWarning, failure.reason ?? '', failure.message ?? '');
    const paused = has(status, ReplicaSetConditionType.ReplicaPaused);
    if (paused && !has(old, ReplicaSetConditionType.ReplicaPaused)) void this.opts.recorder.record(obj, EventTypeNormal, PoolReason.SuccessfulPaused, 'Pool is paused');
    if (!paused && has(old, ReplicaSetConditionType.ReplicaPaused)) void this.opts.recorder.record(obj, EventTypeNormal, PoolReason.SuccessfulResume, 'Pool is unpaused');
  }
}
