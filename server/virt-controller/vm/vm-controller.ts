/**
 * The VM controller, wired (KubeVirt's pkg/virt-controller/watch/vm): informers on VMs and VMIs only
 * enqueue the VM's `namespace/name`; `execute` reads the caches, acts (syncVM), computes the status
 * from the same inputs and writes it once.
 */
import { AppsV1Api, type KubernetesObject } from '@kubernetes/client-node';
import type { DataVolumeLike, PersistentVolumeClaimLike } from '../../../lib/kubevirt/storage-state';
import { isLiveUpdate, isVMIFinal, MEMORY_CHANGE_CONDITION, runStrategyOf, type KubeVirtConfiguration } from '../../../lib/kubevirt';
import type { VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';
import type { KubeClients } from '../../kube/clients';
import { Controller, controllerOwnerKey, SyncError } from '../../kube/controller';
import type { WorkQueueMetricsProvider } from '../../kube/workqueue';
import type { EventRecorder } from '../../kube/events';
import { Expectations } from '../../kube/expectations';
import { Informer } from '../../kube/informer';
import { collectionPath, keyOf, VirtualMachineInstanceResource, VirtualMachineResource } from '../../kube/resources';
import { computeVMStatus } from './compute-vm-status';
import { FailureReason, VM_KIND } from './constants';
import { applyLiveUpdate, memoryChangeMigration, memoryMigrationDue, planLiveUpdate } from './live-update';
import { RevisionStore } from './revisions';
import { InstancetypeLookup } from '../../kube/instancetype-lookup';
import type { ExpansionDeps } from './instancetype-expansion';
import { backoffSettingsFromEnv, type BackoffSettings } from './start-failure';
import { syncVM, withStartAppended } from './sync-vm';
import { isUrgentVMIUpdate, isUrgentVMUpdate } from './urgent-change';
import { setFinalizer, writeVMStatusIfChanged } from './write-vm';
import { ensureDataVolumes } from './data-volume-templates';
import { subjectAccessReviewer, type AccessReview } from '../../kube/clone-authorization';

/** sync failures the queue retries with backoff (KubeVirt returns them to its queue) */
const RETRIED_FAILURES = new Set<string>([FailureReason.FailedCreate, FailureReason.FailedDelete]);

export interface VMControllerOptions {
  clients: KubeClients;
  recorder: EventRecorder;
  backoff?: BackoffSettings;
  workers?: number;
  /** the KubeVirt CR's configuration, read live (vmRolloutStrategy); absent: Stage */
  configuration?: () => KubeVirtConfiguration;
  /** work-queue metrics (virt-controller's /metrics) */
  metrics?: WorkQueueMetricsProvider;
}

/** Workers syncing VMs in parallel: a sync mostly waits on API writes (finalizer, status, VMI create). */
const DEFAULT_WORKERS = 8;
/** how soon a VM whose clone was not authorized is looked at again */
const CLONE_AUTH_RETRY_MS = 2_000;

export class VMController {
  readonly vms: Informer<KubernetesObject & VirtualMachine>;
  readonly vmis: Informer<KubernetesObject & VirtualMachineInstance>;
  readonly dataVolumes: Informer<KubernetesObject & DataVolumeLike>;
  readonly claims: Informer<KubernetesObject & PersistentVolumeClaimLike>;
  readonly expectations = new Expectations();
  private readonly controller: Controller;
  private readonly revisions: RevisionStore;
  private readonly expansion: ExpansionDeps;
  private readonly backoff: BackoffSettings;
  private readonly review: AccessReview;

  constructor(private readonly opts: VMControllerOptions) {
    const kc = opts.clients.kc;
    this.backoff = opts.backoff ?? backoffSettingsFromEnv();
    this.review = subjectAccessReviewer(kc);
    this.revisions = new RevisionStore(kc.makeApiClient(AppsV1Api));
    this.expansion = {
      lookup: new InstancetypeLookup(kc), apps: kc.makeApiClient(AppsV1Api),
      patchVM: (namespace, name, patch) => opts.clients.vms.mergePatch(namespace, name, patch),
    };
    this.vms = new Informer({ kc, path: collectionPath(VirtualMachineResource) });
    this.vmis = new Informer({ kc, path: collectionPath(VirtualMachineInstanceResource) });
    this.dataVolumes = new Informer({ kc, path: '/apis/cdi.kubevirt.io/v1beta1/datavolumes' });
    this.claims = new Informer({ kc, path: '/api/v1/persistentvolumeclaims' });
    this.controller = new Controller({ name: 'vm-controller', queueName: 'virt-controller-vm', metrics: opts.metrics, execute: (key) => this.execute(key), informers: [this.vms, this.vmis, this.dataVolumes, this.claims], workers: opts.workers ?? DEFAULT_WORKERS });
    const onStorage = { add: (o: KubernetesObject) => this.enqueueUsersOf(o), update: (_o: KubernetesObject, n: KubernetesObject) => this.enqueueUsersOf(n), delete: (o: KubernetesObject) => this.enqueueUsersOf(o) };
    this.dataVolumes.on(onStorage);
    this.claims.on(onStorage);
    this.vms.on({
      ...this.controller.enqueueHandlers(),
      update: (old, vm) => (isUrgentVMUpdate(old, vm) ? this.controller.enqueueUrgent(vm) : this.controller.enqueue(vm)),
      delete: (vm) => { this.expectations.deleteExpectations(keyOf(vm)); this.controller.enqueue(vm); },
    });
    this.vmis.on({
      add: (vmi) => this.onVMI(vmi, true, (key) => this.expectations.creationObserved(key)),
      update: (old, vmi) => this.onVMI(vmi, isUrgentVMIUpdate(old, vmi), vmi.metadata?.deletionTimestamp ? (key) => this.expectations.deletionObserved(key, vmi.metadata?.uid) : undefined),
      delete: (vmi) => this.onVMI(vmi, true, (key) => this.expectations.deletionObserved(key, vmi.metadata?.uid)),
    });
  }

  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([this.vms.run(signal), this.vmis.run(signal), this.dataVolumes.run(signal), this.claims.run(signal), this.controller.run(signal)]);
  }

  /** A DataVolume or claim changed: the VMs of its namespace whose volumes name it sync again (printable status). */
  private enqueueUsersOf(obj: { metadata?: { namespace?: string; name?: string } }): void {
    const { namespace, name } = obj.metadata ?? {};
    for (const vm of this.vms.list((v: VirtualMachine) => v.metadata.namespace === namespace) as VirtualMachine[]) {
      const vols = vm.spec?.template?.spec?.volumes ?? [];
      if (vols.some((v) => (v.dataVolume?.name ?? v.persistentVolumeClaim?.claimName) === name)) this.controller.enqueue(keyOf(vm));
    }
  }

  /** A VMI created, deleted or changing phase is the visible next step of a user's start/stop: urgent. */
  private onVMI(vmi: VirtualMachineInstance, urgent: boolean, observe?: (key: string) => void): void {
    const key = controllerOwnerKey(vmi as KubernetesObject, VM_KIND);
    if (!key) return;
    observe?.(key);
    if (urgent) this.controller.enqueueUrgent(key);
    else this.controller.enqueue(key);
  }

  /** The VMI this VM controls (same name, controller owner reference with the VM's UID). */
  private vmiOf(key: string, vm: VirtualMachine | undefined): VirtualMachineInstance | undefined {
    const vmi = this.vmis.get(key) as VirtualMachineInstance | undefined;
    if (!vmi || !vm) return vmi;
    const owned = vmi.metadata.ownerReferences?.some((r) => r.controller && r.uid === vm.metadata.uid);
    return owned ? vmi : undefined;
  }

  async execute(key: string): Promise<void> {
    let vm = this.vms.get(key) as VirtualMachine | undefined;
    const vmi = this.vmiOf(key, vm);
    const { clients, recorder } = this.opts;
    if (!vm) {
      this.expectations.deleteExpectations(key);
      if (vmi && (isVMIFinal(vmi) || vmi.metadata.deletionTimestamp)) await setFinalizer(clients.vmis, vmi, false);
      return;
    }
    if (!this.expectations.satisfied(key)) return; // the VMI event for our own write enqueues us again
    if (!vm.metadata.deletionTimestamp) vm = await setFinalizer(clients.vms, vm, true);
    const ns = vm.metadata.namespace ?? 'default';
    const dataVolumeError = await ensureDataVolumes({ custom: clients.custom, recorder, review: this.review }, vm, (name) => this.dataVolumes.get(`${ns}/${name}`));
    // a clone not (yet) authorized: the VM does not start; RBAC changes raise no event here, so look again later
    const result = dataVolumeError
      ? { syncError: dataVolumeError, retryAfterMs: CLONE_AUTH_RETRY_MS }
      : await syncVM({ vms: clients.vms, vmis: clients.vmis, revisions: this.revisions, recorder, expectations: this.expectations, expansion: this.expansion, configuration: this.opts.configuration }, key, vm, vmi);
    const current = result.appendStart ? withStartAppended(vm) : vm;
    const pending = this.expectations.pending(key);
    const status = computeVMStatus(current, vmi, {
      now: new Date(), random: Math.random(), backoff: this.backoff,
      syncError: result.syncError, restartRequired: await this.liveUpdateOrRestartRequired(vm, vmi),
      creationExpected: (pending?.add ?? 0) > 0, deletionExpected: (pending?.del ?? 0) > 0,
      dataVolumes: this.dataVolumes.list((d) => d.metadata?.namespace === ns),
      persistentVolumeClaims: this.claims.list((c) => c.metadata?.namespace === ns),
    });
    await writeVMStatusIfChanged(clients.vms, current, status);
    if (vmi && isVMIFinal(vmi)) await setFinalizer(clients.vmis, vmi, false);
    if (vm.metadata.deletionTimestamp && !vmi) await setFinalizer(clients.vms, vm, false);
    if (result.retryAfterMs) this.controller.enqueueAfter(key, result.retryAfterMs);
    // a VMI create or delete the API server refused (virt-api's webhooks down, a lost race) is tried
    // again with the queue's per-key backoff, as KubeVirt's controller returns the error to its queue:
    // nothing else would wake us once the Failure condition is written and the cause goes away
    if (!result.retryAfterMs && result.syncError && RETRIED_FAILURES.has(result.syncError.reason)) throw new SyncError(result.syncError.reason, result.syncError.message);
    const backoffUntil = Date.parse(status.startFailure?.retryAfterTimestamp ?? '');
    if (Number.isFinite(backoffUntil) && backoffUntil > Date.now()) this.controller.enqueueAfter(key, backoffUntil - Date.now());
  }

  /** A memory change marked on the VMI whose migration was lost or failed gets one (again). */
  private async migrateForMemoryChange(vmi: VirtualMachineInstance): Promise<void> {
    if (!vmi.status?.conditions?.some((c) => c.type === MEMORY_CHANGE_CONDITION && c.status === 'True')) return;
    const namespace = vmi.metadata.namespace ?? 'default';
    const migrations = (await this.opts.clients.migrations.list(namespace)).items as Parameters<typeof memoryMigrationDue>[1];
    if (!memoryMigrationDue(vmi, migrations)) return;
    await this.opts.clients.migrations.create(namespace, memoryChangeMigration(vmi) as never);
  }

  /** Copies a live-updatable change into the running VMI (LiveUpdate); the RestartRequired message when the change needs a restart instead. */
  private async liveUpdateOrRestartRequired(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined): Promise<string | false> {
    if (!vmi || isVMIFinal(vmi) || vmi.metadata.deletionTimestamp || !runStrategyOf(vm).ok) return false;
    await this.migrateForMemoryChange(vmi);
    if (vmi.metadata.annotations?.['kubevirt.io/vm-generation'] === String(vm.metadata.generation)) return false;
    const liveUpdate = isLiveUpdate(this.opts.configuration?.());
    const plan = planLiveUpdate(vm.spec, await this.revisions.specAtStart(vm, vmi), vmi, liveUpdate);
    return applyLiveUpdate({ vmis: this.opts.clients.vmis, migrations: this.opts.clients.migrations }, vmi, plan);
  }
}
