/**
 * kube-controller-manager's volume controllers and the local provisioner, in one loop: PVC ↔ PV
 * binding, dynamic provisioning into the data dir (`local`: one node's disk; `shared`: every node's),
 * reclaim (Delete removes the files, Retain keeps them Released), expansion, and the
 * pvc-/pv-protection finalizers (a claim in use by a Pod is deleted only when no Pod uses it).
 * Keys are `claim:<ns>/<name>` and `volume:<name>`.
 */
import { CustomObjectsApi, type CoreV1Api, type KubernetesObject, type V1PersistentVolume, type V1PersistentVolumeClaim, type V1Pod, type V1StorageClass } from '@kubernetes/client-node';
import { isNotFound, messageOf } from '../kube/api-errors';
import { jsonPatch, mergePatch } from '../kube/clients';
import { Controller } from '../kube/controller';
import { EventTypeNormal, EventTypeWarning, type EventRecorder } from '../kube/events';
import { Informer } from '../kube/informer';
import { keyOf, splitKey } from '../kube/resources';
import { formatBinaryQuantity } from '../../lib/kubevirt/quantity';
import { log } from '../log';
import { boundClaimPatch, boundClaimStatus, capacityBytes, classOfClaim, planClaim, requestedBytes } from './claim-binding';
import { claimNamesOf, podsUsingClaim } from './claim-users';
import { Finalizer, PROVISIONER, StorageAnnotation, StorageReason } from './constants';
import { hostPathOf, renderVolume } from './render-volume';
import { createVolumeFiles, growVolumeFile, NotEnoughSpace, removeVolumeFiles } from './volume-files';
import { fillFromSnapshot, findSnapshotCopy, snapshotSourceOf } from './snapshot-source';

type PVC = V1PersistentVolumeClaim;
type PV = V1PersistentVolume;

export interface VolumeControllerOptions {
  kc: import('@kubernetes/client-node').KubeConfig;
  core: CoreV1Api;
  recorder: EventRecorder;
  dataDir: string;
}

const CLAIM = 'claim:';
const VOLUME = 'volume:';
const BY_CLAIM = 'claim';

export class VolumeController {
  readonly claims: Informer<PVC & KubernetesObject>;
  readonly volumes: Informer<PV & KubernetesObject>;
  readonly classes: Informer<V1StorageClass & KubernetesObject>;
  readonly pods: Informer<V1Pod & KubernetesObject>;
  private readonly controller: Controller;
  /** the last waiting reason told per claim, so a waiting claim gets one event, not one per sync */
  private readonly told = new Map<string, string>();
  private readonly log = log.child({ component: 'volume-controller' });
  private readonly custom: CustomObjectsApi;

  constructor(private readonly opts: VolumeControllerOptions) {
    const kc = opts.kc;
    this.custom = kc.makeApiClient(CustomObjectsApi);
    this.claims = new Informer({ kc, path: '/api/v1/persistentvolumeclaims' });
    this.volumes = new Informer({ kc, path: '/api/v1/persistentvolumes', indexers: { [BY_CLAIM]: (pv: PV) => (pv.spec?.claimRef ? [`${pv.spec.claimRef.namespace}/${pv.spec.claimRef.name}`] : []) } });
    this.classes = new Informer({ kc, path: '/apis/storage.k8s.io/v1/storageclasses' });
    this.pods = new Informer({ kc, path: '/api/v1/pods' });
    this.controller = new Controller({ name: 'volume-controller', execute: (key) => this.execute(key), informers: [this.claims, this.volumes, this.classes, this.pods], workers: 2 });
    const claimKey = (o: KubernetesObject) => this.controller.enqueue(CLAIM + keyOf(o));
    this.claims.on({ add: claimKey, update: (_o, n) => claimKey(n), delete: (o) => { claimKey(o); this.volumesOfClaim(keyOf(o)).forEach((pv) => this.enqueueVolume(pv)); } });
    const onVolume = (pv: PV) => {
      this.enqueueVolume(pv);
      const ref = pv.spec?.claimRef;
      if (ref?.namespace && ref.name) this.controller.enqueue(`${CLAIM}${ref.namespace}/${ref.name}`);
    };
    this.volumes.on({ add: onVolume, update: (_o, n) => onVolume(n), delete: onVolume });
    // a new class (kv up installs them after we start) may unblock waiting claims
    this.classes.on({ add: () => this.claims.list().forEach((c) => claimKey(c)) });
    const onPod = (p: V1Pod) => claimNamesOf(p).forEach((c) => this.controller.enqueue(`${CLAIM}${p.metadata?.namespace}/${c}`));
    this.pods.on({ add: onPod, update: (_o, n) => onPod(n), delete: onPod });
  }

  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([this.claims.run(signal), this.volumes.run(signal), this.classes.run(signal), this.pods.run(signal), this.controller.run(signal)]);
  }

  private enqueueVolume(pv: PV): void {
    this.controller.enqueue(VOLUME + (pv.metadata?.name ?? ''));
  }

  private volumesOfClaim(claimKey: string): PV[] {
    return this.volumes.byIndex(BY_CLAIM, claimKey);
  }

  async execute(key: string): Promise<void> {
    if (key.startsWith(CLAIM)) return this.syncClaim(key.slice(CLAIM.length));
    if (key.startsWith(VOLUME)) return this.syncVolume(key.slice(VOLUME.length));
  }

  private classMap(): Map<string, V1StorageClass> {
    return new Map(this.classes.list().map((c) => [c.metadata?.name ?? '', c]));
  }

  private async syncClaim(key: string): Promise<void> {
    const pvc = this.claims.get(key);
    if (!pvc) return void this.told.delete(key);
    if (await this.protectClaim(key, pvc)) return;
    const action = planClaim(pvc, { pvs: this.volumes.list(), classes: this.classMap() });
    if (action.kind !== 'wait') this.told.delete(key);
    switch (action.kind) {
      case 'none': return this.expandClaim(pvc);
      case 'bind': return this.bind(pvc, action.pv);
      case 'provision': return this.provision(pvc, action.sc, action.node);
      case 'lost':
        await this.opts.core.patchNamespacedPersistentVolumeClaimStatus({ namespace: pvc.metadata!.namespace!, name: pvc.metadata!.name!, body: { status: { phase: 'Lost' } } }, mergePatch);
        void this.opts.recorder.record(pvc as KubernetesObject, EventTypeWarning, StorageReason.ClaimLost, action.message);
        return;
      case 'wait':
        if (this.told.get(key) === action.message) return;
        this.told.set(key, action.message);
        void this.opts.recorder.record(pvc as KubernetesObject, action.warning ? EventTypeWarning : EventTypeNormal, action.reason, action.message);
    }
  }

  /** pvc-protection: add the finalizer to live claims; lift it from deleted ones no Pod uses. True when the claim is going. */
  private async protectClaim(key: string, pvc: PVC): Promise<boolean> {
    const { namespace, name } = splitKey(key);
    const finalizers = pvc.metadata?.finalizers ?? [];
    const has = finalizers.includes(Finalizer.PVC);
    if (!pvc.metadata?.deletionTimestamp) {
      if (!has) await this.opts.core.patchNamespacedPersistentVolumeClaim({ namespace: namespace!, name, body: [{ op: 'add', path: '/metadata/finalizers', value: [...finalizers, Finalizer.PVC] }] }, jsonPatch);
      return false;
    }
    if (has && podsUsingClaim(this.pods.list(), namespace!, name).length === 0) {
      const value = finalizers.filter((f) => f !== Finalizer.PVC);
      await this.opts.core.patchNamespacedPersistentVolumeClaim({
        namespace: namespace!, name,
        body: [{ op: 'test', path: '/metadata/resourceVersion', value: pvc.metadata.resourceVersion }, { op: 'replace', path: '/metadata/finalizers', value }],
      }, jsonPatch);
    }
    return true;
  }

  private async bind(pvc: PVC, pv: PV): Promise<void> {
    const core = this.opts.core;
    const pvName = pv.metadata!.name!;
    if (!pv.spec?.claimRef?.uid) {
      const claimRef = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: pvc.metadata?.namespace, name: pvc.metadata?.name, uid: pvc.metadata?.uid, resourceVersion: pvc.metadata?.resourceVersion };
      await core.patchPersistentVolume({ name: pvName, body: { metadata: { annotations: { [StorageAnnotation.BoundByController]: 'yes' } }, spec: { claimRef } } }, mergePatch);
    }
    if (pv.status?.phase !== 'Bound') await core.patchPersistentVolumeStatus({ name: pvName, body: { status: { phase: 'Bound' } } }, mergePatch);
    const ns = pvc.metadata!.namespace!;
    const name = pvc.metadata!.name!;
    if (pvc.spec?.volumeName !== pvName || pvc.metadata?.annotations?.[StorageAnnotation.BindCompleted] !== 'yes') {
      await core.patchNamespacedPersistentVolumeClaim({ namespace: ns, name, body: boundClaimPatch(pvc, pv) }, mergePatch);
    }
    await core.patchNamespacedPersistentVolumeClaimStatus({ namespace: ns, name, body: { status: boundClaimStatus(pv) } }, mergePatch);
    this.log.info({ claim: `${ns}/${name}`, volume: pvName }, 'claim bound');
  }

  private async provision(pvc: PVC, sc: V1StorageClass, node: string | undefined): Promise<void> {
    const pv = renderVolume(pvc, sc, node, this.opts.dataDir);
    if (this.volumes.get(pv.metadata!.name!)) return; // made already; its add event binds
    const path = hostPathOf(pv)!;
    const block = pvc.spec?.volumeMode === 'Block';
    const snapshot = snapshotSourceOf(pvc);
    const source = snapshot ? await findSnapshotCopy(this.custom, this.opts.dataDir, pvc.metadata?.namespace ?? 'default', snapshot) : undefined;
    if (source && 'error' in source) {
      void this.opts.recorder.record(pvc as KubernetesObject, EventTypeWarning, StorageReason.ProvisioningFailed, `failed to provision volume with StorageClass "${sc.metadata?.name}": ${source.error}`);
      return void this.controller.enqueueAfter(CLAIM + keyOf(pvc as KubernetesObject), 10_000);
    }
    try {
      await createVolumeFiles(path, requestedBytes(pvc), block, node ?? 'the shared storage', pvc.spec?.resources?.requests?.storage);
      if (source) await fillFromSnapshot(source.file, path, block);
    } catch (err) {
      const message = `failed to provision volume with StorageClass "${sc.metadata?.name}": ${messageOf(err)}`;
      void this.opts.recorder.record(pvc as KubernetesObject, EventTypeWarning, StorageReason.ProvisioningFailed, message);
      if (err instanceof NotEnoughSpace) {
        this.controller.enqueueAfter(CLAIM + keyOf(pvc as KubernetesObject), 30_000);
        return;
      }
      throw err;
    }
    try {
      await this.opts.core.createPersistentVolume({ body: pv });
    } catch (err) {
      if ((err as { code?: number }).code !== 409) throw err;
    }
    void this.opts.recorder.record(pvc as KubernetesObject, EventTypeNormal, StorageReason.ProvisioningSucceeded, `Successfully provisioned volume ${pv.metadata?.name}`);
  }

  /** allowVolumeExpansion: a bound claim asking for more grows its volume (and a Block file) */
  private async expandClaim(pvc: PVC): Promise<void> {
    if (pvc.status?.phase !== 'Bound') return;
    const want = requestedBytes(pvc);
    const pv = this.volumes.get(pvc.spec?.volumeName ?? '');
    if (!pv || want <= capacityBytes(pv)) {
      if (pv && (pvc.status?.capacity?.storage ?? '') !== (pv.spec?.capacity?.storage ?? '')) {
        await this.opts.core.patchNamespacedPersistentVolumeClaimStatus({ namespace: pvc.metadata!.namespace!, name: pvc.metadata!.name!, body: { status: { capacity: { storage: pv.spec?.capacity?.storage } } } }, mergePatch);
      }
      return;
    }
    const sc = this.classMap().get(classOfClaim(pvc));
    if (!sc?.allowVolumeExpansion || sc.provisioner !== PROVISIONER) return;
    const storage = pvc.spec?.resources?.requests?.storage;
    if (pv.spec?.volumeMode === 'Block') await growVolumeFile(hostPathOf(pv)!, want);
    await this.opts.core.patchPersistentVolume({ name: pv.metadata!.name!, body: { spec: { capacity: { storage } } } }, mergePatch);
    await this.opts.core.patchNamespacedPersistentVolumeClaimStatus({ namespace: pvc.metadata!.namespace!, name: pvc.metadata!.name!, body: { status: { capacity: { storage } } } }, mergePatch);
    void this.opts.recorder.record(pvc as KubernetesObject, EventTypeNormal, StorageReason.VolumeResizeSuccessful, `resize volume "${pv.metadata?.name}" to ${formatBinaryQuantity(want)} finished`);
  }

  private async syncVolume(name: string): Promise<void> {
    const pv = this.volumes.get(name);
    if (!pv) return;
    const core = this.opts.core;
    const ref = pv.spec?.claimRef;
    const claim = ref ? this.claims.get(`${ref.namespace}/${ref.name}`) : undefined;
    const claimGone = !!ref?.uid && (!claim || claim.metadata?.uid !== ref.uid);
    if (pv.metadata?.deletionTimestamp) {
      const fins = pv.metadata.finalizers ?? [];
      if (fins.includes(Finalizer.PV) && (pv.status?.phase !== 'Bound' || claimGone)) {
        await core.patchPersistentVolume({ name, body: [{ op: 'replace', path: '/metadata/finalizers', value: fins.filter((f) => f !== Finalizer.PV) }] }, jsonPatch);
      }
      return;
    }
    if (!ref) {
      if (pv.status?.phase !== 'Available') await core.patchPersistentVolumeStatus({ name, body: { status: { phase: 'Available' } } }, mergePatch);
      return;
    }
    if (!claimGone) return;
    if (pv.status?.phase !== 'Released' && pv.status?.phase !== 'Failed') {
      await core.patchPersistentVolumeStatus({ name, body: { status: { phase: 'Released' } } }, mergePatch);
    }
    if (pv.spec?.persistentVolumeReclaimPolicy !== 'Delete') return;
    if (pv.metadata?.annotations?.[StorageAnnotation.ProvisionedBy] !== PROVISIONER) {
      await core.patchPersistentVolumeStatus({ name, body: { status: { phase: 'Failed', message: `error getting deleter volume plugin for volume "${name}": no deletable volume plugin matched` } } }, mergePatch);
      return;
    }
    const path = hostPathOf(pv);
    try {
      if (path) await removeVolumeFiles(path);
      await core.deletePersistentVolume({ name });
      this.log.info({ volume: name }, 'volume deleted (reclaim policy Delete)');
    } catch (err) {
      if (isNotFound(err)) return;
      void this.opts.recorder.record(pv as KubernetesObject, EventTypeWarning, StorageReason.VolumeFailedDelete, messageOf(err));
      throw err;
    }
  }
}
