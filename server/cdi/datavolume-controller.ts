/**
 * CDI's DataVolume controller, reduced to what runs here: each DataVolume gets its claim (owned by
 * it) and an importer Pod that fills it; the Pod's outcome becomes the DataVolume's phase. A failed
 * import takes its claim with it (no half-written claim stays bound); a succeeded one removes its
 * Pod. Progress is read from the importer's pod dir where this process can see it (embedded mode).
 * A `sourceRef` to a DataSource clones the DataSource's PVC (datavolume-source-ref.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CoreV1Api, CustomObjectsApi, KubeConfig, KubernetesObject, V1PersistentVolumeClaim, V1Pod, V1PodSpec, V1StorageClass } from '@kubernetes/client-node';
import { isConflict, isNotFound, messageOf } from '../kube/api-errors';
import { mergePatch, toDeleteBody } from '../kube/clients';
import { Controller } from '../kube/controller';
import { EventTypeNormal, EventTypeWarning, type EventRecorder } from '../kube/events';
import { Informer } from '../kube/informer';
import { keyOf, splitKey } from '../kube/resources';
import { log } from '../log';
import { dataPaths } from '../data-dir';
import { computeDataVolumeStatus, sameStatus } from './datavolume-status';
import { CDI_APP_LABEL, CDI_GROUP, CDI_VERSION, DATAVOLUMES, DVPhase, sourceKindOf, type DataVolume } from './datavolume-types';
import { importerPodName, renderImporterPod, type ImporterPlacement } from './render-importer-pod';
import { renderClaim, requestedStorage } from './render-claim';
import { PROGRESS_FILE } from './importer/progress';
import { DATASOURCES, type DataSource } from './datasource-status';
import { dataSourceKeyOf, resolveSourceRef } from './datavolume-source-ref';
import { parseQuantity } from '../../lib/kubevirt/quantity';

export interface DataVolumeControllerOptions {
  kc: KubeConfig;
  core: CoreV1Api;
  custom: CustomObjectsApi;
  recorder: EventRecorder;
  /** embedded mode: where importer pod dirs are (progress) */
  dataDir?: string;
}

const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';

export class DataVolumeController {
  readonly dataVolumes: Informer<DataVolume & KubernetesObject>;
  readonly claims: Informer<V1PersistentVolumeClaim & KubernetesObject>;
  readonly pods: Informer<V1Pod & KubernetesObject>;
  readonly classes: Informer<V1StorageClass & KubernetesObject>;
  readonly dataSources: Informer<DataSource & KubernetesObject>;
  private readonly controller: Controller;
  private readonly log = log.child({ component: 'datavolume-controller' });

  constructor(private readonly opts: DataVolumeControllerOptions) {
    const kc = opts.kc;
    this.dataVolumes = new Informer({ kc, path: `/apis/${CDI_GROUP}/${CDI_VERSION}/${DATAVOLUMES}` });
    this.claims = new Informer({ kc, path: '/api/v1/persistentvolumeclaims' });
    this.pods = new Informer({ kc, path: '/api/v1/pods', labelSelector: `app=${CDI_APP_LABEL}` });
    this.classes = new Informer({ kc, path: '/apis/storage.k8s.io/v1/storageclasses' });
    this.dataSources = new Informer({ kc, path: `/apis/${CDI_GROUP}/${CDI_VERSION}/${DATASOURCES}` });
    this.controller = new Controller({ name: 'datavolume-controller', execute: (k) => this.sync(k), informers: [this.dataVolumes, this.claims, this.pods, this.classes, this.dataSources], workers: 1 });
    this.dataVolumes.on(this.controller.enqueueHandlers());
    const bySameName = (o: KubernetesObject) => this.controller.enqueue(keyOf(o));
    this.claims.on({ add: bySameName, update: (_o, n) => bySameName(n), delete: bySameName });
    const byLabel = (p: V1Pod) => {
      const dv = p.metadata?.labels?.['cdi.kubevirt.io/dataVolume'];
      if (dv) this.controller.enqueue(`${p.metadata?.namespace}/${dv}`);
    };
    this.pods.on({ add: byLabel, update: (_o, n) => byLabel(n), delete: byLabel });
    // a DataVolume waiting for its sourceRef's DataSource goes on when it appears or changes
    const byRef = (ds: KubernetesObject) => {
      const key = keyOf(ds);
      for (const dv of this.dataVolumes.list((d) => dataSourceKeyOf(d) === key)) this.controller.enqueue(keyOf(dv as KubernetesObject));
    };
    this.dataSources.on({ add: byRef, update: (_o, n) => byRef(n), delete: byRef });
  }

  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([this.dataVolumes.run(signal), this.claims.run(signal), this.pods.run(signal), this.classes.run(signal), this.dataSources.run(signal), this.controller.run(signal)]);
  }

  private classOf(name: string | undefined): V1StorageClass | undefined {
    const all = this.classes.list();
    if (name) return all.find((c) => c.metadata?.name === name);
    return all.find((c) => c.metadata?.annotations?.[DEFAULT_CLASS_ANNOTATION] === 'true');
  }

  private progressOf(pod: V1Pod | undefined): string | undefined {
    if (!this.opts.dataDir || !pod?.spec?.nodeName || !pod.metadata?.uid) return undefined;
    try {
      return readFileSync(join(dataPaths(this.opts.dataDir).node(pod.spec.nodeName), 'pods', pod.metadata.uid, PROGRESS_FILE), 'utf8').trim() || undefined;
    } catch {
      return undefined;
    }
  }

  async sync(key: string): Promise<void> {
    const stored = this.dataVolumes.get(key);
    if (!stored || stored.metadata.deletionTimestamp) return;
    // sourceRef → the DataSource's PVC, cloned like a `source.pvc` (CDI's way); the stored spec keeps the ref
    const resolved = resolveSourceRef(stored, (k) => this.dataSources.get(k));
    const dv = 'dv' in resolved ? resolved.dv : stored;
    const held = 'waiting' in resolved ? resolved.waiting : undefined;
    const { namespace } = splitKey(key);
    const ns = namespace ?? 'default';
    const pod = this.pods.get(`${ns}/${importerPodName(dv)}`);
    let pvc = this.claims.get(key);
    const phase = dv.status?.phase;
    const done = phase === DVPhase.Succeeded || phase === DVPhase.Failed;
    let failure = 'failure' in resolved ? resolved.failure : held ? undefined : this.checkSpec(dv);
    if (!failure && pvc && !this.ownsClaim(dv, pvc)) failure = { reason: 'ErrResourceExists', message: `Resource "${pvc.metadata?.name}" already exists and is not managed by DataVolume` };
    if (!failure && !held && !pvc && !done) pvc = await this.createClaim(dv);
    if (!failure && pvc && !pod && !done && this.ownsClaim(dv, pvc)) {
      const placement = await this.placementFor(dv);
      if (placement === 'wait') this.controller.enqueueAfter(key, 500);
      else await this.createImporter(dv, pvc, placement);
    }
    const upload = this.uploads.get(key);
    const status = computeDataVolumeStatus(dv, { pvc, pod, failure, waiting: held, upload, progress: this.progressOf(pod), now: new Date().toISOString() });
    const written = sameStatus(dv.status, status) || (await this.writeStatus(dv, status));
    if (upload && written) this.uploads.delete(key);
    if (status.phase !== phase) this.announce(dv, status.phase ?? '', status.conditions?.find((c) => c.type === 'Running')?.message ?? '');
    if (status.phase === DVPhase.Succeeded && pod) await this.deleteQuietly(() => this.opts.core.deleteNamespacedPod({ namespace: ns, name: pod.metadata!.name!, body: toDeleteBody({ uid: pod.metadata?.uid }) }));
    if (status.phase === DVPhase.Failed && !failure) {
      if (pod) await this.deleteQuietly(() => this.opts.core.deleteNamespacedPod({ namespace: ns, name: pod.metadata!.name!, body: toDeleteBody({ uid: pod.metadata?.uid }) }));
      if (pvc && this.ownsClaim(dv, pvc)) await this.deleteQuietly(() => this.opts.core.deleteNamespacedPersistentVolumeClaim({ namespace: ns, name: pvc!.metadata!.name!, body: toDeleteBody({ uid: pvc!.metadata?.uid }) }));
    }
  }

  /** what an upload endpoint reported, until the DataVolume's status says it */
  private readonly uploads = new Map<string, { ok: true } | { ok: false; message: string }>();

  /** The upload endpoint's view: where an UploadReady DataVolume's claim lives on this machine. */
  async uploadTarget(namespace: string, name: string): Promise<{ path: string; sizeBytes: number } | { error: string; code: number }> {
    const dv = this.dataVolumes.get(`${namespace}/${name}`);
    if (!dv) return { error: `datavolume ${namespace}/${name} not found`, code: 404 };
    if (sourceKindOf(dv) !== 'upload') return { error: `datavolume ${namespace}/${name} is not an upload DataVolume`, code: 400 };
    if (dv.status?.phase !== DVPhase.UploadReady) return { error: `datavolume ${namespace}/${name} is not ready for upload (phase ${dv.status?.phase ?? 'Pending'})`, code: 409 };
    const pvc = this.claims.get(`${namespace}/${name}`);
    const pvName = pvc?.spec?.volumeName;
    if (!pvc || !pvName) return { error: `the claim of ${namespace}/${name} is not bound`, code: 409 };
    const pv = await this.opts.core.readPersistentVolume({ name: pvName });
    const path = pv.spec?.local?.path ?? pv.spec?.hostPath?.path;
    if (!path) return { error: `volume ${pvName} has no path on this machine`, code: 500 };
    return { path, sizeBytes: parseQuantity(pvc.status?.capacity?.storage) ?? 0 };
  }

  async uploadFinished(namespace: string, name: string, outcome: { ok: true } | { ok: false; message: string }): Promise<void> {
    this.uploads.set(`${namespace}/${name}`, outcome);
    this.controller.enqueue(`${namespace}/${name}`);
  }

  private checkSpec(dv: DataVolume): { reason: string; message: string } | undefined {
    const kind = sourceKindOf(dv);
    if (!kind) return { reason: 'InvalidSpec', message: 'DataVolume has no supported source (http, registry, pvc, blank)' };
    if (kind === 'pvc' && dv.spec.source?.pvc?.namespace && dv.spec.source.pvc.namespace !== dv.metadata.namespace) {
      return { reason: 'InvalidSpec', message: 'cloning from another namespace is not supported' };
    }
    if (!requestedStorage(dv)) return { reason: 'InvalidSpec', message: 'DataVolume.spec.storage.resources.requests.storage is required' };
    return undefined;
  }

  private ownsClaim(dv: DataVolume, pvc: V1PersistentVolumeClaim): boolean {
    return (pvc.metadata?.ownerReferences ?? []).some((r) => r.uid === dv.metadata.uid && r.controller);
  }

  private async createClaim(dv: DataVolume): Promise<V1PersistentVolumeClaim | undefined> {
    const body = renderClaim(dv, (n) => this.classOf(n));
    try {
      const created = await this.opts.core.createNamespacedPersistentVolumeClaim({ namespace: dv.metadata.namespace!, body });
      void this.opts.recorder.record(dv as KubernetesObject, EventTypeNormal, 'Pending', `PVC ${body.metadata?.name} Pending`);
      return created;
    } catch (err) {
      if (isConflict(err)) return undefined; // the cache will show it
      void this.opts.recorder.record(dv as KubernetesObject, EventTypeWarning, 'ErrClaimNotValid', messageOf(err));
      throw err;
    }
  }

  /**
   * A VM's node-local disks must end up on one node: the importer of a VM's DataVolume follows the
   * VM's placement rules and the node a sibling's claim was given; while a sibling's importer is
   * still unscheduled, it waits (one worker, so two siblings never start unpinned together).
   */
  private async placementFor(dv: DataVolume): Promise<ImporterPlacement | 'wait'> {
    const owner = (dv.metadata.ownerReferences as { kind?: string; uid?: string; name?: string; controller?: boolean }[] | undefined)?.find((r) => r.controller && r.kind === 'VirtualMachine');
    if (!owner) return {};
    const ns = dv.metadata.namespace!;
    const siblings = this.dataVolumes.list((d) => d.metadata.namespace === ns && d.metadata.name !== dv.metadata.name
      && (d.metadata.ownerReferences as { uid?: string }[] | undefined)?.some((r) => r.uid === owner.uid) === true);
    let node: string | undefined;
    for (const s of siblings) {
      const claimNode = this.claims.get(`${ns}/${s.metadata.name}`)?.metadata?.annotations?.['volume.kubernetes.io/selected-node'];
      if (claimNode) node = claimNode;
      else if (this.pods.get(`${ns}/${importerPodName(s)}`) && !this.pods.get(`${ns}/${importerPodName(s)}`)?.spec?.nodeName) return 'wait';
    }
    const template = await this.vmTemplateSpec(ns, owner.name ?? '');
    return { node, nodeSelector: template?.nodeSelector, affinity: template?.affinity, tolerations: template?.tolerations };
  }

  private async vmTemplateSpec(namespace: string, name: string): Promise<Pick<V1PodSpec, 'nodeSelector' | 'affinity' | 'tolerations'> | undefined> {
    try {
      const vm = await this.opts.custom.getNamespacedCustomObject({ group: 'kubevirt.io', version: 'v1', plural: 'virtualmachines', namespace, name }) as { spec?: { template?: { spec?: Pick<V1PodSpec, 'nodeSelector' | 'affinity' | 'tolerations'> } } };
      return vm.spec?.template?.spec;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  private async createImporter(dv: DataVolume, pvc: V1PersistentVolumeClaim, placement: ImporterPlacement): Promise<void> {
    try {
      await this.opts.core.createNamespacedPod({ namespace: dv.metadata.namespace!, body: renderImporterPod(dv, pvc, placement) });
      this.log.info({ dv: keyOf(dv as KubernetesObject), source: sourceKindOf(dv) }, 'importer pod created');
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
  }

  private announce(dv: DataVolume, phase: string, message: string): void {
    const ok = phase !== DVPhase.Failed;
    const text = phase === DVPhase.Succeeded ? `Successfully ${sourceKindOf(dv) === 'pvc' ? 'cloned' : 'imported'} into PVC ${dv.metadata.name}` : phase === DVPhase.Failed ? message : `${phase}`;
    void this.opts.recorder.record(dv as KubernetesObject, ok ? EventTypeNormal : EventTypeWarning, phase === DVPhase.Failed ? 'Error' : phase, text);
  }

  /** true when written; false when the cache was behind (an event follows) */
  private async writeStatus(dv: DataVolume, status: DataVolume['status']): Promise<boolean> {
    try {
      await this.opts.custom.patchNamespacedCustomObjectStatus({
        group: CDI_GROUP, version: CDI_VERSION, plural: DATAVOLUMES, namespace: dv.metadata.namespace!, name: dv.metadata.name!,
        body: { metadata: { resourceVersion: dv.metadata.resourceVersion }, status },
      }, mergePatch);
      return true;
    } catch (err) {
      if (isNotFound(err) || isConflict(err)) return false; // gone, or our cache is behind: an event follows
      throw err;
    }
  }

  private async deleteQuietly(fn: () => Promise<unknown>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }
}
