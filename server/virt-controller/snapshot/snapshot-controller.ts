/**
 * KubeVirt's snapshot and restore controllers (pkg/storage/snapshot), on the embedded storage:
 * a VirtualMachineSnapshot copies each claim's disk of the VM (copy-on-write where the filesystem
 * can, else only the written blocks) and records the VM's spec in a VirtualMachineSnapshotContent;
 * a VirtualMachineRestore writes those disks back over the claims and the spec back into the VM,
 * which must be stopped. A running VM with a guest agent has its filesystems frozen while its
 * volumes are copied (indications Online, GuestAgent); without one the copy is crash-consistent
 * (Online, NoGuestAgent). Keys: `s:`, `c:`, `r:` + namespace/name.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { type VirtualMachine, type VirtualMachineInstance } from '../../../lib/kubevirt';
import { isConflict, isNotFound, messageOf, unlessNotFound } from '../../kube/api-errors';
import { jsonPatch, mergePatch, type KubeClients } from '../../kube/clients';
import { Controller } from '../../kube/controller';
import { EventTypeNormal, EventTypeWarning, type EventRecorder } from '../../kube/events';
import { Informer } from '../../kube/informer';
import { collectionPath, keyOf, VirtualMachineInstanceResource, VirtualMachineResource } from '../../kube/resources';
import { log } from '../../log';
import { restoreComplete, restoreFailed, restoreHasFailed, restoreRefused, restoreWaiting, snapshotFailed, snapshotInProgress, snapshotSucceeded } from './snapshot-status';
import { decideNotReady, RESTORE_TARGET_NOT_READY_EVENT, targetReady } from './restore-readiness';
import { CONTENT_FINALIZER, SNAPSHOT_GROUP, SNAPSHOT_VERSION, type VMRestore, type VMSnapshot, type VMSnapshotContent, type VolumeBackup } from './snapshot-types';
import { copyDisk, diskFileOf, removeSnapshotData, restoreDisk, snapshotDir } from './volume-copy';
import { canFreeze, freezeGuest, thawGuest } from './guest-freeze';
import { renderRestoredClaim, renderRestoredVM, restoredClaimName } from './restore-new-vm';

export interface SnapshotControllerOptions {
  clients: KubeClients;
  recorder: EventRecorder;
  /** embedded mode: where claims and snapshot copies live */
  dataDir?: string;
}

type K<T> = T & KubernetesObject;
const api = (plural: string) => ({ group: SNAPSHOT_GROUP, version: SNAPSHOT_VERSION, plural });
const SNAPSHOT = { group: SNAPSHOT_GROUP, version: SNAPSHOT_VERSION };
const KUBEVIRT = { group: 'kubevirt.io', version: 'v1' };
const isFinalSnapshot = (s: VMSnapshot) => s.status?.phase === 'Succeeded' || s.status?.phase === 'Failed';

export class SnapshotController {
  readonly snapshots: Informer<K<VMSnapshot>>;
  readonly contents: Informer<K<VMSnapshotContent>>;
  readonly restores: Informer<K<VMRestore>>;
  readonly vms: Informer<K<VirtualMachine>>;
  readonly vmis: Informer<K<VirtualMachineInstance>>;
  private readonly controller: Controller;
  private readonly log = log.child({ component: 'snapshot-controller' });

  constructor(private readonly opts: SnapshotControllerOptions) {
    const kc = opts.clients.kc;
    const path = (plural: string) => `/apis/${SNAPSHOT_GROUP}/${SNAPSHOT_VERSION}/${plural}`;
    this.snapshots = new Informer({ kc, path: path('virtualmachinesnapshots') });
    this.contents = new Informer({ kc, path: path('virtualmachinesnapshotcontents') });
    this.restores = new Informer({ kc, path: path('virtualmachinerestores') });
    this.vms = new Informer({ kc, path: collectionPath(VirtualMachineResource) });
    this.vmis = new Informer({ kc, path: collectionPath(VirtualMachineInstanceResource) });
    this.controller = new Controller({ name: 'snapshot-controller', execute: (k) => this.execute(k), informers: [this.snapshots, this.contents, this.restores, this.vms, this.vmis], workers: 1 });
    const on = (prefix: string) => ({ add: (o: KubernetesObject) => this.controller.enqueue(prefix + keyOf(o)), update: (_o: KubernetesObject, n: KubernetesObject) => this.controller.enqueue(prefix + keyOf(n)), delete: (o: KubernetesObject) => this.controller.enqueue(prefix + keyOf(o)) });
    this.snapshots.on(on('s:'));
    this.contents.on(on('c:'));
    this.restores.on(on('r:'));
    // a VM stopping may let a waiting restore go
    const vmChanged = (o: KubernetesObject) => { for (const r of this.restores.list((x) => x.metadata.namespace === o.metadata?.namespace)) this.controller.enqueue(`r:${keyOf(r)}`); };
    this.vms.on({ update: (_o, n) => vmChanged(n) });
    this.vmis.on({ delete: vmChanged, update: (_o, n) => vmChanged(n) });
  }

  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([this.snapshots.run(signal), this.contents.run(signal), this.restores.run(signal), this.vms.run(signal), this.vmis.run(signal), this.controller.run(signal)]);
  }

  async execute(key: string): Promise<void> {
    const rest = key.slice(2);
    if (key.startsWith('s:')) return this.syncSnapshot(rest);
    if (key.startsWith('c:')) return this.syncContent(rest);
    if (key.startsWith('r:')) return this.syncRestore(rest);
  }

  private async writeStatus(plural: string, obj: { metadata: { namespace?: string; name?: string } }, status: unknown): Promise<void> {
    try {
      await this.opts.clients.custom.patchNamespacedCustomObjectStatus({ ...api(plural), namespace: obj.metadata.namespace!, name: obj.metadata.name!, body: { status } }, mergePatch);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** The disk file behind a claim of the namespace, on this machine. */
  private async claimDisk(namespace: string, claim: string): Promise<{ file: string; block: boolean; spec: Record<string, unknown> }> {
    const pvc = await this.opts.clients.core.readNamespacedPersistentVolumeClaim({ namespace, name: claim });
    if (!pvc.spec?.volumeName) throw new Error(`PersistentVolumeClaim ${claim} is not bound`);
    const pv = await this.opts.clients.core.readPersistentVolume({ name: pvc.spec.volumeName });
    const path = pv.spec?.local?.path ?? pv.spec?.hostPath?.path;
    if (!path) throw new Error(`volume ${pv.metadata?.name} has no path on this machine`);
    const file = await diskFileOf(path);
    return { file, block: file === path, spec: JSON.parse(JSON.stringify(pvc.spec)) as Record<string, unknown> };
  }

  private async syncSnapshot(key: string): Promise<void> {
    const cached = this.snapshots.get(key);
    if (!cached || cached.metadata.deletionTimestamp || isFinalSnapshot(cached)) return;
    const ns = cached.metadata.namespace ?? 'default';
    // the informer may still hold the InProgress object after our Succeeded write: copying the
    // disks again then would put later writes into a snapshot already reported ready
    const snap = await this.fresh<K<VMSnapshot>>('virtualmachinesnapshots', SNAPSHOT, ns, cached.metadata.name ?? '');
    if (!snap || snap.metadata.deletionTimestamp || isFinalSnapshot(snap)) return;
    const phase = snap.status?.phase;
    const now = new Date().toISOString();
    if (snap.spec.source.kind !== 'VirtualMachine') return this.writeStatus('virtualmachinesnapshots', snap, snapshotFailed(snap, now, `unsupported source kind ${snap.spec.source.kind}`));
    const vm = this.vms.get(`${ns}/${snap.spec.source.name}`);
    if (!vm) return this.writeStatus('virtualmachinesnapshots', snap, snapshotInProgress(snap, now, undefined, 'Source does not exist'));
    if (!this.opts.dataDir) return this.writeStatus('virtualmachinesnapshots', snap, snapshotFailed(snap, now, 'snapshots need the embedded storage (kv up)'));
    if (phase !== 'InProgress') await this.writeStatus('virtualmachinesnapshots', snap, snapshotInProgress(snap, now, vm.metadata.uid));
    try {
      await this.takeSnapshot(snap, vm);
    } catch (err) {
      const message = messageOf(err);
      void this.opts.recorder.record(snap, EventTypeWarning, 'SnapshotFailed', message);
      await this.writeStatus('virtualmachinesnapshots', snap, snapshotFailed(snap, new Date().toISOString(), message));
    }
  }

  private async takeSnapshot(snap: K<VMSnapshot>, vm: K<VirtualMachine>): Promise<void> {
    const ns = snap.metadata.namespace ?? 'default';
    const contentName = `vmsnapshot-content-${snap.metadata.uid}`;
    const dir = snapshotDir(this.opts.dataDir!, ns, contentName);
    const volumes = vm.spec.template?.spec?.volumes ?? [];
    const backups: VolumeBackup[] = [];
    const excluded: string[] = [];
    const started = Date.now();
    const vmi = this.vmis.get(`${ns}/${vm.metadata.name}`);
    const online = vmi?.status?.phase === 'Running';
    const frozen = canFreeze(vmi) && (await this.freeze(snap, vmi));
    try {
      for (const v of volumes) {
        const claim = v.persistentVolumeClaim?.claimName ?? v.dataVolume?.name;
        if (!claim) { excluded.push(v.name); continue; }
        const disk = await this.claimDisk(ns, claim);
        await copyDisk(disk.file, `${dir}/${v.name}.img`);
        backups.push({ volumeName: v.name, persistentVolumeClaim: { metadata: { name: claim, namespace: ns }, spec: disk.spec }, volumeSnapshotName: `vmsnapshot-${snap.metadata.uid}-volume-${v.name}` });
      }
    } finally {
      if (frozen) await thawGuest(this.opts.clients.kc, vmi!).catch((err: unknown) => this.log.warn({ snapshot: keyOf(snap), err: messageOf(err) }, 'thaw failed; the launcher thaws at the unfreeze timeout'));
    }
    const ms = Date.now() - started;
    const owned = snap.spec.deletionPolicy !== 'retain';
    const content: VMSnapshotContent & { apiVersion: string; kind: string } = {
      apiVersion: `${SNAPSHOT_GROUP}/${SNAPSHOT_VERSION}`, kind: 'VirtualMachineSnapshotContent',
      metadata: {
        name: contentName, namespace: ns, finalizers: [CONTENT_FINALIZER],
        ...(owned ? { ownerReferences: [{ apiVersion: `${SNAPSHOT_GROUP}/${SNAPSHOT_VERSION}`, kind: 'VirtualMachineSnapshot', name: snap.metadata.name, uid: snap.metadata.uid, controller: true, blockOwnerDeletion: true }] as never } : {}),
      },
      spec: {
        virtualMachineSnapshotName: snap.metadata.name ?? '',
        source: { virtualMachine: { metadata: { name: vm.metadata.name, namespace: ns, labels: vm.metadata.labels, annotations: vm.metadata.annotations } as never, spec: JSON.parse(JSON.stringify(vm.spec)) as Record<string, unknown> } },
        volumeBackups: backups,
      },
    };
    try {
      await this.opts.clients.custom.createNamespacedCustomObject({ ...api('virtualmachinesnapshotcontents'), namespace: ns, body: content });
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
    const now = new Date().toISOString();
    await this.writeStatus('virtualmachinesnapshotcontents', content, { readyToUse: true, creationTime: now, volumeSnapshotStatus: backups.map((b) => ({ volumeSnapshotName: b.volumeSnapshotName, readyToUse: true, creationTime: now })) });
    const indications = online ? ['Online', frozen ? 'GuestAgent' : 'NoGuestAgent'] : [];
    await this.writeStatus('virtualmachinesnapshots', snap, snapshotSucceeded(snap, now, { sourceUID: vm.metadata.uid, content: contentName, indications, volumes: backups.map((b) => b.volumeName), excluded }));
    this.log.info({ snapshot: keyOf(snap), volumes: backups.length, ms, online, frozen }, 'snapshot taken');
    void this.opts.recorder.record(snap, EventTypeNormal, 'SuccessfulVirtualMachineSnapshotContentCreate', `Successfully created VirtualMachineSnapshotContent ${contentName}`);
  }

  /** Freezes the guest's filesystems; a refusal is a warning and the snapshot is crash-consistent. */
  private async freeze(snap: K<VMSnapshot>, vmi: VirtualMachineInstance): Promise<boolean> {
    try {
      await freezeGuest(this.opts.clients.kc, vmi);
      return true;
    } catch (err) {
      void this.opts.recorder.record(snap, EventTypeWarning, 'FreezeFailed', `could not freeze the guest's filesystems, taking a crash-consistent snapshot: ${messageOf(err)}`);
      return false;
    }
  }

  /** A content being deleted takes its copies with it. */
  private async syncContent(key: string): Promise<void> {
    const content = this.contents.get(key);
    if (!content?.metadata.deletionTimestamp || !content.metadata.finalizers?.includes(CONTENT_FINALIZER)) return;
    if (this.opts.dataDir) await removeSnapshotData(snapshotDir(this.opts.dataDir, content.metadata.namespace ?? 'default', content.metadata.name ?? ''));
    const finalizers = content.metadata.finalizers.filter((f) => f !== CONTENT_FINALIZER);
    await this.opts.clients.custom.patchNamespacedCustomObject({ ...api('virtualmachinesnapshotcontents'), namespace: content.metadata.namespace!, name: content.metadata.name!, body: [{ op: 'replace', path: '/metadata/finalizers', value: finalizers }] }, jsonPatch);
  }

  /** Why the snapshot cannot be restored now (KubeVirt's words), or undefined. */
  private snapshotBlocker(r: VMRestore, snap: VMSnapshot | undefined): string | undefined {
    if (!snap) return `VirtualMachineSnapshot "${r.spec.virtualMachineSnapshotName}" does not exist`;
    if (snap.status?.phase === 'Failed') return `VirtualMachineSnapshot "${r.spec.virtualMachineSnapshotName}" has failed and is invalid to use`;
    if (!snap.status?.readyToUse) return `VirtualMachineSnapshot "${r.spec.virtualMachineSnapshotName}" is not ready to use`;
    return r.spec.target.name ? undefined : 'spec.target.name is required';
  }

  /** The object as the API server has it now (the informer may lag our own last write), or undefined when gone. */
  private async fresh<T>(plural: string, group: { group: string; version: string }, ns: string, name: string): Promise<T | undefined> {
    return (await unlessNotFound(this.opts.clients.custom.getNamespacedCustomObject({ ...group, plural, namespace: ns, name }))) as T | undefined;
  }

  /**
   * An existing target that is not ready (a VMI exists, or its run strategy would start one): the
   * restore's targetReadinessPolicy decides, as KubeVirt's restore controller does. True when ready.
   */
  private async targetReadyFor(key: string, r: K<VMRestore>, vm: K<VirtualMachine>): Promise<boolean> {
    const ns = r.metadata.namespace ?? 'default';
    const vmi = await this.fresh<VirtualMachineInstance>('virtualmachineinstances', KUBEVIRT, ns, r.spec.target.name);
    if (targetReady(vm, vmi !== undefined)) return true;
    const created = Date.parse(r.metadata.creationTimestamp ?? '');
    const d = decideNotReady(r.spec.targetReadinessPolicy, Number.isFinite(created) ? created : Date.now(), Date.now());
    const now = new Date().toISOString();
    const shown = r.status?.conditions?.find((x) => x.type === 'Ready')?.message;
    if (d.action === 'fail') {
      void this.opts.recorder.record(r, EventTypeWarning, 'Operation failed', `VirtualMachineRestore failed ${d.message}`);
      await this.writeStatus('virtualmachinerestores', r, restoreFailed(r, now, d.message));
      return false;
    }
    if (shown !== d.message) {
      void this.opts.recorder.record(r, EventTypeWarning, RESTORE_TARGET_NOT_READY_EVENT, d.action === 'stop' ? d.message : d.event);
      await this.writeStatus('virtualmachinerestores', r, restoreWaiting(r, now, d.message));
    }
    if (d.action === 'stop') await this.stopTarget(vm);
    else if (d.retryAfterMs !== undefined) this.controller.enqueueAfter(`r:${key}`, d.retryAfterMs + 100);
    return false;
  }

  /** StopTarget: the VM's run strategy (or legacy `running`) set to stop it and keep it stopped. */
  private async stopTarget(vm: K<VirtualMachine>): Promise<void> {
    const ns = vm.metadata.namespace ?? 'default';
    const name = vm.metadata.name ?? '';
    if (vm.spec.running !== undefined && vm.spec.running !== null) {
      if (vm.spec.running) await this.opts.clients.vms.mergePatch(ns, name, { spec: { running: false } });
    } else if (vm.spec.runStrategy !== 'Halted') {
      await this.opts.clients.vms.mergePatch(ns, name, { spec: { runStrategy: 'Halted' } });
    }
    this.log.info({ vm: keyOf(vm), restore: true }, 'stopping the restore target');
  }

  /** KubeVirt's `status.restoreInProgress`: while set, the VM's run strategy cannot change (VM admission). */
  private async markRestoreInProgress(ns: string, vm: string, restore: string | null): Promise<void> {
    await this.opts.clients.vms.mergePatchStatus(ns, vm, { status: { restoreInProgress: restore } });
  }

  /** Restore to a new VM: claims filled from the snapshot by the provisioner, then the VM on them. */
  private async restoreToNewVM(r: VMRestore, content: VMSnapshotContent): Promise<NonNullable<NonNullable<VMRestore['status']>['restores']>> {
    const ns = r.metadata.namespace ?? 'default';
    const restores: NonNullable<NonNullable<VMRestore['status']>['restores']> = [];
    for (const b of content.spec.volumeBackups ?? []) {
      const name = restoredClaimName(r, b.volumeName, b.persistentVolumeClaim.metadata.name);
      try {
        await this.opts.clients.core.createNamespacedPersistentVolumeClaim({ namespace: ns, body: renderRestoredClaim(r, b) });
      } catch (err) {
        if (!isConflict(err)) throw err;
        // made on an earlier attempt of this restore, or someone else's claim that must not be taken over
        const existing = await this.opts.clients.core.readNamespacedPersistentVolumeClaim({ namespace: ns, name });
        if (existing.spec?.dataSource?.name !== b.volumeSnapshotName) throw new Error(`PersistentVolumeClaim "${name}" already exists`, { cause: err });
      }
      restores.push({ volumeName: b.volumeName, persistentVolumeClaim: name, volumeSnapshotName: b.volumeSnapshotName });
    }
    let vm: KubernetesObject;
    try {
      vm = await this.opts.clients.vms.create(ns, renderRestoredVM(r, content) as never);
    } catch (err) {
      if (!isConflict(err)) throw err;
      vm = await this.opts.clients.vms.get(ns, r.spec.target.name);
    }
    // volumeOwnershipPolicy Vm (the default): the new claims go with the new VM
    if (r.spec.volumeOwnershipPolicy !== 'None' && vm.metadata?.uid) {
      const owner = { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', name: r.spec.target.name, uid: vm.metadata.uid, controller: true, blockOwnerDeletion: true };
      for (const x of restores) {
        await this.opts.clients.core.patchNamespacedPersistentVolumeClaim({ namespace: ns, name: x.persistentVolumeClaim, body: { metadata: { ownerReferences: [owner] } } }, mergePatch);
      }
    }
    return restores;
  }

  private async syncRestore(key: string): Promise<void> {
    const cached = this.restores.get(key);
    if (!cached || cached.metadata.deletionTimestamp || cached.status?.complete || restoreHasFailed(cached)) return;
    const ns = cached.metadata.namespace ?? 'default';
    // the informer may not have seen our last status write yet: a finished restore never runs twice
    const r = await this.fresh<K<VMRestore>>('virtualmachinerestores', SNAPSHOT, ns, cached.metadata.name ?? '');
    if (!r || r.metadata.deletionTimestamp || r.status?.complete || restoreHasFailed(r)) return;
    const snap = this.snapshots.get(`${ns}/${r.spec.virtualMachineSnapshotName}`);
    const now = new Date().toISOString();
    const blocker = this.snapshotBlocker(r, snap);
    if (blocker) {
      if (r.status?.conditions?.find((x) => x.type === 'Ready')?.message !== blocker) await this.writeStatus('virtualmachinerestores', r, restoreRefused(r, now, blocker));
      return;
    }
    const content = this.contents.get(`${ns}/${snap!.status!.virtualMachineSnapshotContentName}`);
    if (!content || !this.opts.dataDir) return void this.controller.enqueueAfter(`r:${key}`, 1000);
    const vm = await this.fresh<K<VirtualMachine>>('virtualmachines', KUBEVIRT, ns, r.spec.target.name);
    if (vm && !(await this.targetReadyFor(key, r, vm))) return;
    const dir = snapshotDir(this.opts.dataDir, ns, content.metadata.name ?? '');
    let restores: NonNullable<NonNullable<VMRestore['status']>['restores']> = [];
    try {
      if (!vm) {
        restores = await this.restoreToNewVM(r, content);
        await this.writeStatus('virtualmachinerestores', r, restoreComplete(r, new Date().toISOString(), restores));
        void this.opts.recorder.record(r, EventTypeNormal, 'VirtualMachineRestoreComplete', `Successfully completed VirtualMachineRestore ${r.metadata.name}: new VirtualMachine ${r.spec.target.name}`);
        return;
      }
      await this.markRestoreInProgress(ns, r.spec.target.name, r.metadata.name ?? '');
      for (const b of content.spec.volumeBackups ?? []) {
        const disk = await this.claimDisk(ns, b.persistentVolumeClaim.metadata.name);
        await restoreDisk(`${dir}/${b.volumeName}.img`, disk.file, disk.block);
        restores.push({ volumeName: b.volumeName, persistentVolumeClaim: b.persistentVolumeClaim.metadata.name, volumeSnapshotName: b.volumeSnapshotName });
      }
      const saved = content.spec.source.virtualMachine.spec as { template?: unknown };
      await this.opts.clients.vms.mergePatch(ns, r.spec.target.name, { spec: { template: saved.template } });
      await this.markRestoreInProgress(ns, r.spec.target.name, null);
    } catch (err) {
      const message = messageOf(err);
      if (vm) await this.markRestoreInProgress(ns, r.spec.target.name, null).catch(() => undefined);
      await this.writeStatus('virtualmachinerestores', r, restoreRefused(r, now, message));
      throw err;
    }
    await this.writeStatus('virtualmachinerestores', r, restoreComplete(r, new Date().toISOString(), restores));
    void this.opts.recorder.record(r, EventTypeNormal, 'VirtualMachineRestoreComplete', `Successfully completed VirtualMachineRestore ${r.metadata.name}`);
  }
}
