/**
 * The VirtualMachineInstanceReplicaSet controller, wired (KubeVirt's
 * pkg/virt-controller/watch/replicaset): informers on replica sets and VMIs enqueue the replica
 * set's `namespace/name` (a VMI → its controller, or for an orphan every set whose selector
 * matches it); `execute` plans from the caches, acts, and writes the status once.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { sameJSON, selectorMatches, VirtualMachineInstanceReplicaSetResource } from '../../../lib/kubevirt';
import type { VirtualMachineInstance, VirtualMachineInstanceReplicaSet } from '../../../lib/kubevirt';
import { CustomResourceClient, type KubeClients } from '../../kube/clients';
import { Controller, controllerOwnerKey } from '../../kube/controller';
import { EventTypeNormal, type EventRecorder } from '../../kube/events';
import { Expectations } from '../../kube/expectations';
import { Informer } from '../../kube/informer';
import { collectionPath, keyOf, VirtualMachineInstanceResource } from '../../kube/resources';
import { isNotFound } from '../../kube/api-errors';
import { RS_KIND, RSEventReason } from './constants';
import { planReplicas } from './plan-replicas';
import { computeRSStatus, pauseTransition } from './replicaset-status';
import { syncReplicaSet } from './sync-replicaset';

export interface ReplicaSetControllerOptions {
  clients: KubeClients;
  recorder: EventRecorder;
  workers?: number;
}

const asRS = (o: KubernetesObject) => o as unknown as VirtualMachineInstanceReplicaSet;
const asVMI = (o: KubernetesObject) => o as unknown as VirtualMachineInstance;

export class ReplicaSetController {
  readonly sets: Informer<KubernetesObject>;
  readonly vmis: Informer<KubernetesObject>;
  readonly expectations = new Expectations();
  private readonly controller: Controller;
  private readonly client: CustomResourceClient<KubernetesObject>;

  constructor(private readonly opts: ReplicaSetControllerOptions) {
    const kc = opts.clients.kc;
    this.client = new CustomResourceClient(opts.clients.custom, VirtualMachineInstanceReplicaSetResource);
    this.sets = new Informer({ kc, path: collectionPath(VirtualMachineInstanceReplicaSetResource) });
    this.vmis = new Informer({ kc, path: collectionPath(VirtualMachineInstanceResource) });
    this.controller = new Controller({ name: 'replicaset-controller', execute: (key) => this.execute(key), informers: [this.sets, this.vmis], workers: opts.workers ?? 2 });
    this.sets.on({
      ...this.controller.enqueueHandlers(),
      delete: (rs) => { this.expectations.deleteExpectations(keyOf(rs)); this.controller.enqueue(rs); },
    });
    this.vmis.on({
      add: (vmi) => this.onVMI(asVMI(vmi), (key) => this.expectations.creationObserved(key)),
      update: (old, vmi) => {
        if (vmi.metadata?.deletionTimestamp && !old.metadata?.deletionTimestamp) this.onVMI(asVMI(vmi), (key) => this.expectations.deletionObserved(key, vmi.metadata?.uid));
        else this.onVMI(asVMI(vmi));
        if (!sameJSON(old.metadata?.labels ?? {}, vmi.metadata?.labels ?? {})) this.enqueueMatching(asVMI(old));
      },
      delete: (vmi) => this.onVMI(asVMI(vmi), (key) => this.expectations.deletionObserved(key, vmi.metadata?.uid)),
    });
  }

  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([this.sets.run(signal), this.vmis.run(signal), this.controller.run(signal)]);
  }

  private onVMI(vmi: VirtualMachineInstance, observe?: (key: string) => void): void {
    const key = controllerOwnerKey(vmi as unknown as KubernetesObject, RS_KIND);
    if (key) {
      observe?.(key);
      this.controller.enqueue(key);
      return;
    }
    if (!vmi.metadata.ownerReferences?.some((r) => r.controller)) this.enqueueMatching(vmi);
  }

  /** an orphan (or a VMI whose labels changed): every replica set of its namespace that selects it */
  private enqueueMatching(vmi: VirtualMachineInstance): void {
    const sets = this.sets.list((rs) => rs.metadata?.namespace === vmi.metadata.namespace).map(asRS);
    for (const rs of sets) if (selectorMatches(rs.spec?.selector, vmi.metadata.labels)) this.controller.enqueue(keyOf(rs));
  }

  async execute(key: string): Promise<void> {
    const obj = this.sets.get(key);
    if (!obj) {
      this.expectations.deleteExpectations(key);
      return;
    }
    const rs = asRS(obj);
    // KubeVirt: an invalid spec (admission lets none through) is left alone, not retried
    if (!rs.spec?.template || !rs.spec.selector || !Object.keys(rs.spec.template.metadata?.labels ?? {}).length) return;
    if (!selectorMatches(rs.spec.selector, rs.spec.template.metadata?.labels)) return;
    const ns = rs.metadata.namespace;
    const vmis = this.vmis.list((v) => v.metadata?.namespace === ns).map(asVMI);
    const plan = planReplicas(rs, vmis, this.expectations.satisfied(key));
    const failure = await syncReplicaSet({ vmis: this.opts.clients.vmis, recorder: this.opts.recorder, expectations: this.expectations }, key, rs, plan);
    await this.writeStatus(rs, computeRSStatus(rs, plan.active, failure, new Date()));
    if (failure) throw new Error(failure.message);
  }

  private async writeStatus(rs: VirtualMachineInstanceReplicaSet, status: ReturnType<typeof computeRSStatus>): Promise<void> {
    const old = rs.status ?? {};
    if (sameJSON({ ...status, conditions: status.conditions ?? [] }, { ...old, conditions: old.conditions ?? [] })) return;
    try {
      await this.client.mergePatchStatus(rs.metadata.namespace!, rs.metadata.name!, { status: { ...status, conditions: status.conditions ?? null } });
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    const flip = pauseTransition(rs, status);
    const obj = rs as unknown as KubernetesObject;
    if (flip === 'paused') void this.opts.recorder.record(obj, EventTypeNormal, RSEventReason.SuccessfulPaused, 'Paused');
    if (flip === 'resumed') void this.opts.recorder.record(obj, EventTypeNormal, RSEventReason.SuccessfulResumed, 'Resumed');
  }
}
