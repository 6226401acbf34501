/**
 * The VMI controller, wired (KubeVirt's pkg/virt-controller/watch/vmi): informers on VMIs and
 * launcher Pods only enqueue `namespace/name`; `execute` reads the caches, acts (sync), computes
 * the status from the same inputs and writes it once.
 */
import type { KubernetesObject, V1PersistentVolumeClaim, V1Pod, V1StorageClass } from '@kubernetes/client-node';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import { isConflict, isNotFound, messageOf } from '../../kube/api-errors';
import { toDeleteBody } from '../../kube/clients';
import { HOTPLUG_APP, planAttachmentPods, renderAttachmentPod, withHotplugVolumeStatus } from './hotplug-pods';
import type { KubeClients } from '../../kube/clients';
import { Controller, controllerOwnerKey } from '../../kube/controller';
import type { WorkQueueMetricsProvider } from '../../kube/workqueue';
import { EventTypeNormal, type EventRecorder } from '../../kube/events';
import { Expectations } from '../../kube/expectations';
import { Informer } from '../../kube/informer';
import { NamespaceQuotaCaches } from '../namespace-quota-caches';
import { OwnWrites } from '../../kube/own-writes';
import { log } from '../../log';
import { collectionPath, keyOf, PodResource, VirtualMachineInstanceResource } from '../../kube/resources';
import { ERR_IMAGE_NEVER_PULL, type ImageExists } from './check-images';
import { computeStatus, isFinal } from './compute-status';
import { APP_VIRT_LAUNCHER, Label, Reason } from './constants';
import { isLauncherPodOf } from './pod-state';
import type { RenderOptions } from './render-launcher-pod';
import { autoLimitsFromCaches, type QuotaLike } from './auto-resource-limits';
import { IMAGE_RETRY_MS, syncLauncherPod } from './sync-launcher-pod';
import { labelNodeIfNeeded, patchMetadataIfNeeded, writeStatusIfChanged, type VMIClient } from './write-vmi';
import { claimVolumes, claimsReadiness, withClaimVolumeStatus, type ClaimLookup, type DataVolumeLike } from './claim-volumes';
import { needsBackendStorage, renderBackendStorageClaim } from './backend-storage-claim';
import { backendStorageClaimName } from '../../../lib/kubevirt/backend-storage';

export interface VMIControllerOptions {
  clients: KubeClients;
  recorder: EventRecorder;
  /** Embedded mode: the local image store lookup; undefined in cluster mode (the kubelet pulls). */
  imageExists?: ImageExists;
  render?: RenderOptions;
  workers?: number;
  /** work-queue metrics (virt-controller's /metrics) */
  metrics?: WorkQueueMetricsProvider;
  /** the KubeVirt CR's vmStateStorageClass, live (backend storage claims) */
  vmStateStorageClass?: () => string | undefined;
  /** the process's ResourceQuota and Namespace caches (shared with the migration controller); own ones when absent */
  caches?: NamespaceQuotaCaches;
}

const VMI_KIND = 'VirtualMachineInstance';
const BY_VMI_UID = 'vmiUID';

export class VMIController {
  readonly vmis: Informer<VirtualMachineInstance & KubernetesObject>;
  readonly pods: Informer<V1Pod & KubernetesObject>;
  readonly hotplugPods: Informer<V1Pod & KubernetesObject>;
  readonly claims: Informer<V1PersistentVolumeClaim & KubernetesObject>;
  readonly dataVolumes: Informer<DataVolumeLike & KubernetesObject>;
  readonly storageClasses: Informer<V1StorageClass & KubernetesObject>;
  /** ResourceQuotas and Namespaces: automatic resource limits of launcher Pods */
  readonly quotas: Informer<QuotaLike & KubernetesObject>;
  readonly namespaces: Informer<KubernetesObject>;
  private readonly caches: NamespaceQuotaCaches;
  private readonly render: RenderOptions;
  private readonly claimLookup: ClaimLookup;
  readonly expectations = new Expectations();
  /** the VMI versions our own writes replaced: a sync that still sees one waits for our write's event */
  private readonly ownWrites = new OwnWrites();
  private readonly controller: Controller;
  private readonly log = log.child({ component: 'vmi-controller' });

  constructor(private readonly opts: VMIControllerOptions) {
    const kc = opts.clients.kc;
    this.vmis = new Informer({ kc, path: collectionPath(VirtualMachineInstanceResource) });
    this.pods = new Informer({
      kc, path: collectionPath(PodResource), labelSelector: `${Label.App}=${APP_VIRT_LAUNCHER}`,
      indexers: { [BY_VMI_UID]: (p: V1Pod) => [p.metadata?.labels?.[Label.CreatedBy]] },
    });
    this.hotplugPods = new Informer({
      kc, path: collectionPath(PodResource), labelSelector: `${Label.App}=${HOTPLUG_APP}`,
      indexers: { [BY_VMI_UID]: (p: V1Pod) => [p.metadata?.labels?.[Label.CreatedBy]] },
    });
    this.hotplugPods.on({ add: (p) => this.onPod(p), update: (_o, p) => this.onPod(p), delete: (p) => this.onPod(p) });
    this.claims = new Informer({ kc, path: '/api/v1/persistentvolumeclaims' });
    this.dataVolumes = new Informer({ kc, path: '/apis/cdi.kubevirt.io/v1beta1/datavolumes' });
    this.storageClasses = new Informer({ kc, path: '/apis/storage.k8s.io/v1/storageclasses' });
    this.caches = opts.caches ?? new NamespaceQuotaCaches(kc);
    this.quotas = this.caches.quotas;
    this.namespaces = this.caches.namespaces;
    this.render = { ...opts.render, autoLimits: autoLimitsFromCaches(this.quotas, this.namespaces) };
    this.claimLookup = {
      claim: (ns, name) => this.claims.get(`${ns}/${name}`),
      dataVolume: (ns, name) => this.dataVolumes.get(`${ns}/${name}`),
    };
    this.controller = new Controller({ name: 'vmi-controller', queueName: 'virt-controller-vmi', metrics: opts.metrics, execute: (key) => this.execute(key), informers: [this.vmis, this.pods, this.hotplugPods, this.claims, this.dataVolumes, this.storageClasses, this.quotas, this.namespaces], workers: opts.workers ?? 3 });
    const onClaim = { add: (o: KubernetesObject) => this.enqueueUsersOf(o), update: (_o: KubernetesObject, n: KubernetesObject) => this.enqueueUsersOf(n), delete: (o: KubernetesObject) => this.enqueueUsersOf(o) };
    this.claims.on(onClaim);
    this.dataVolumes.on(onClaim);
    this.vmis.on({
      ...this.controller.enqueueHandlers(),
      delete: (vmi) => { this.expectations.deleteExpectations(keyOf(vmi)); this.ownWrites.forget(keyOf(vmi)); this.controller.enqueue(vmi); },
    });
    this.pods.on({
      add: (pod) => this.onPod(pod, (key) => this.expectations.creationObserved(key)),
      update: (_old, pod) => this.onPod(pod),
      delete: (pod) => this.onPod(pod, (key) => this.expectations.deletionObserved(key, pod.metadata?.uid)),
    });
  }

  /** Runs informers and workers until the signal aborts. */
  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([this.vmis.run(signal), this.pods.run(signal), this.hotplugPods.run(signal), this.claims.run(signal), this.dataVolumes.run(signal), this.storageClasses.run(signal), this.caches.run(signal), this.controller.run(signal)]);
  }

  /** Hot-plugged claims: one attachment Pod each on the VMI's node while the VMI runs and names the volume. */
  private async syncAttachmentPods(vmi: VirtualMachineInstance, pods: V1Pod[]): Promise<void> {
    const plan = planAttachmentPods(vmi, pods, this.claimLookup);
    const ns = vmi.metadata.namespace ?? 'default';
    for (const c of plan.create) {
      try {
        await this.opts.clients.core.createNamespacedPod({ namespace: ns, body: renderAttachmentPod(vmi, c) });
      } catch (err) {
        if (!isConflict(err)) throw err;
      }
    }
    for (const p of plan.remove) {
      try {
        await this.opts.clients.core.deleteNamespacedPod({ namespace: ns, name: p.metadata!.name!, body: toDeleteBody({ uid: p.metadata?.uid }) });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }

  /**
   * A VMI with a persistent TPM or EFI: its backend storage claim, created once (before the launcher
   * Pod, which waits for it like any claim); a VM's VMI finds the one its earlier runs left.
   */
  private async ensureBackendStorage(vmi: VirtualMachineInstance): Promise<void> {
    if (!needsBackendStorage(vmi) || vmi.metadata.deletionTimestamp) return;
    const ns = vmi.metadata.namespace ?? 'default';
    if (this.claims.get(`${ns}/${backendStorageClaimName(vmi.metadata.name ?? '')}`)) return;
    const body = renderBackendStorageClaim(vmi, this.opts.vmStateStorageClass?.(), (name) => this.storageClasses.get(name));
    try {
      await this.opts.clients.core.createNamespacedPersistentVolumeClaim({ namespace: ns, body });
      void this.opts.recorder.record(vmi as KubernetesObject, EventTypeNormal, Reason.SuccessfulCreate, `Created backend storage PVC ${body.metadata!.name}`);
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
  }

  /** A claim or DataVolume changed: the VMIs in its namespace that use it sync again. */
  private enqueueUsersOf(obj: { metadata?: { namespace?: string; name?: string } }): void {
    const ns = obj.metadata?.namespace;
    const name = obj.metadata?.name;
    for (const vmi of this.vmis.list((v: VirtualMachineInstance) => v.metadata.namespace === ns) as VirtualMachineInstance[]) {
      if (claimVolumes(vmi).some((c) => c.claimName === name)) this.controller.enqueue(keyOf(vmi));
    }
  }

  private onPod(pod: V1Pod, observe?: (key: string) => void): void {
    const key = controllerOwnerKey(pod, VMI_KIND);
    if (!key) return;
    observe?.(key);
    this.controller.enqueue(key);
  }

  async execute(key: string): Promise<void> {
    const vmi = this.vmis.get(key) as VirtualMachineInstance | undefined;
    if (!vmi) return this.expectations.deleteExpectations(key);
    if (!this.expectations.satisfied(key)) return; // a pod event for our own write will enqueue us again
    if (this.ownWrites.isStale(key, vmi.metadata.resourceVersion)) return; // so will our last VMI write's event
    const pods = (this.pods.byIndex(BY_VMI_UID, vmi.metadata.uid ?? '') as V1Pod[]).filter((p) => isLauncherPodOf(p, vmi));
    const { clients, recorder, imageExists } = this.opts;
    const render = this.render;
    await this.ensureBackendStorage(vmi);
    const claimsReady = () => claimsReadiness(vmi, this.claimLookup);
    const { error: syncError, created } = await syncLauncherPod({ clients, recorder, expectations: this.expectations, imageExists, render, claimsReady }, key, vmi, pods);
    const status = computeStatus(vmi, { pods: created ? [...pods, created] : pods, syncError, now: new Date() });
    const attachments = this.hotplugPods.byIndex(BY_VMI_UID, vmi.metadata.uid ?? '');
    await this.syncAttachmentPods(vmi, attachments);
    const volumeStatus = withHotplugVolumeStatus(withClaimVolumeStatus(status.volumeStatus, vmi, this.claimLookup), vmi, attachments);
    if (volumeStatus) status.volumeStatus = volumeStatus;
    const vmiClient = clients.vmis as VMIClient;
    const labelError = (err: unknown) => this.log.warn({ key, err: messageOf(err) }, 'could not label the VMI with its node');
    const { base, patched } = await labelNodeIfNeeded(vmiClient, vmi, status.nodeName, labelError);
    const rv = (o: VirtualMachineInstance) => o.metadata.resourceVersion;
    if (patched) this.ownWrites.wrote(key, rv(vmi), rv(patched));
    const written = await writeStatusIfChanged(vmiClient, base, status);
    if (written !== base) this.ownWrites.wrote(key, rv(base), rv(written));
    const gone = Boolean(vmi.metadata.deletionTimestamp) && pods.length === 0 && isFinal(status.phase);
    const final = await patchMetadataIfNeeded(vmiClient, written, { finalizer: !gone }, labelError);
    if (final !== written) this.ownWrites.wrote(key, rv(written), rv(final));
    if (syncError?.reason === Reason.ErrImagePull || syncError?.reason === ERR_IMAGE_NEVER_PULL || syncError?.reason === Reason.FailedPvcNotFound) this.controller.enqueueAfter(key, IMAGE_RETRY_MS);
    else if (syncError) throw syncError;
  }
}
