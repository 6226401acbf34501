/**
 * KubeVirt's clone controller (pkg/virt-controller/watch/clone): a VirtualMachineClone takes a
 * snapshot of its source VM (or uses the snapshot it names), restores it into a new VM with the
 * clone's changes as restore patches, then removes its temporary snapshot and restore.
 * Phases SnapshotInProgress → RestoreInProgress → Succeeded (or Failed), as KubeVirt reports them.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import type { VirtualMachine } from '../../../lib/kubevirt';
import { isConflict, isNotFound, messageOf, statusCodeOf, unlessNotFound } from '../../kube/api-errors';
import { mergePatch, type KubeClients } from '../../kube/clients';
import { Controller } from '../../kube/controller';
import { EventTypeNormal, EventTypeWarning, type EventRecorder } from '../../kube/events';
import { Informer } from '../../kube/informer';
import { collectionPath, keyOf, VirtualMachineResource } from '../../kube/resources';
import { log } from '../../log';
import { SNAPSHOT_GROUP, SNAPSHOT_VERSION, type VMRestore, type VMSnapshot, type VMSnapshotContent } from '../snapshot/snapshot-types';
import { cloneProblem, clonePatches, Phase, targetNameOf, tmpRestoreName, tmpSnapshotName, type VMClone } from './clone-plan';

type K<T> = T & KubernetesObject;
export const CLONE_GROUP = 'clone.kubevirt.io';
export const CLONE_VERSION = 'v1beta1';
const snap = (plural: string) => ({ group: SNAPSHOT_GROUP, version: SNAPSHOT_VERSION, plural });
const CLONES = { group: CLONE_GROUP, version: CLONE_VERSION, plural: 'virtualmachineclones' };

export interface CloneControllerOptions { clients: KubeClients; recorder: EventRecorder }

export class CloneController {
  readonly clones: Informer<K<VMClone>>;
  readonly snapshots: Informer<K<VMSnapshot>>;
  readonly restores: Informer<K<VMRestore>>;
  readonly vms: Informer<K<VirtualMachine>>;
  private readonly controller: Controller;
  private readonly log = log.child({ component: 'clone-controller' });

  constructor(private readonly opts: CloneControllerOptions) {
    const kc = opts.clients.kc;
    this.clones = new Informer({ kc, path: `/apis/${CLONE_GROUP}/${CLONE_VERSION}/virtualmachineclones` });
    this.snapshots = new Informer({ kc, path: `/apis/${SNAPSHOT_GROUP}/${SNAPSHOT_VERSION}/virtualmachinesnapshots` });
    this.restores = new Informer({ kc, path: `/apis/${SNAPSHOT_GROUP}/${SNAPSHOT_VERSION}/virtualmachinerestores` });
    this.vms = new Informer({ kc, path: collectionPath(VirtualMachineResource) });
    this.controller = new Controller({ name: 'clone-controller', execute: (k) => this.sync(k), informers: [this.clones, this.snapshots, this.restores, this.vms], workers: 1 });
    this.clones.on(this.controller.enqueueHandlers());
    // a snapshot, restore or VM changing may move any clone of its namespace on
    const nudge = (o: KubernetesObject) => { for (const c of this.clones.list((x) => x.metadata.namespace === o.metadata?.namespace)) this.controller.enqueue(keyOf(c)); };
    const handlers = { add: nudge, update: (_o: KubernetesObject, n: KubernetesObject) => nudge(n), delete: nudge };
    this.snapshots.on(handlers);
    this.restores.on(handlers);
    this.vms.on(handlers);
  }

  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([this.clones.run(signal), this.snapshots.run(signal), this.restores.run(signal), this.vms.run(signal), this.controller.run(signal)]);
  }

  private owner(c: K<VMClone>) {
    return [{ apiVersion: `${CLONE_GROUP}/${CLONE_VERSION}`, kind: 'VirtualMachineClone', name: c.metadata.name!, uid: c.metadata.uid!, controller: true, blockOwnerDeletion: true }];
  }

  private async writeStatus(c: K<VMClone>, status: NonNullable<VMClone['status']>): Promise<void> {
    const now = new Date().toISOString();
    const done = status.phase === Phase.Succeeded;
    const failed = status.phase === Phase.Failed;
    const message = status.conditions?.[0]?.message;
    const next = {
      ...c.status, ...status, creationTime: c.status?.creationTime ?? now,
      conditions: [
        { type: 'Progressing', status: done || failed ? 'False' : 'True', reason: status.phase ?? '', message: message ?? '', lastTransitionTime: now },
        { type: 'Ready', status: done ? 'True' : 'False', reason: status.phase ?? '', message: message ?? '', lastTransitionTime: now },
      ],
    };
    const same = c.status?.phase === next.phase && c.status?.conditions?.[1]?.message === next.conditions[1].message && c.status?.snapshotName === next.snapshotName && c.status?.restoreName === next.restoreName;
    if (same) return;
    await this.opts.clients.custom.patchNamespacedCustomObjectStatus({ ...CLONES, namespace: c.metadata.namespace!, name: c.metadata.name!, body: { status: next } }, mergePatch);
  }

  private async fail(c: K<VMClone>, message: string): Promise<void> {
    void this.opts.recorder.record(c, EventTypeWarning, 'CloneFailed', message);
    await this.writeStatus(c, { phase: Phase.Failed, conditions: [{ type: 'Ready', status: 'False', message }] });
  }

  private async create(what: { group: string; version: string; plural: string }, ns: string, body: object): Promise<void> {
    try {
      await this.opts.clients.custom.createNamespacedCustomObject({ ...what, namespace: ns, body });
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
  }

  private async remove(what: { group: string; version: string; plural: string }, ns: string, name: string): Promise<void> {
    try {
      await this.opts.clients.custom.deleteNamespacedCustomObject({ ...what, namespace: ns, name });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** The object as the API server has it now (the informer may lag our own last write), or undefined when gone. */
  private async fresh<T>(what: { group: string; version: string; plural: string }, ns: string, name: string): Promise<T | undefined> {
    return (await unlessNotFound(this.opts.clients.custom.getNamespacedCustomObject({ ...what, namespace: ns, name }))) as T | undefined;
  }

  async sync(key: string): Promise<void> {
    const cached = this.clones.get(key);
    if (!cached || cached.metadata.deletionTimestamp || cached.status?.phase === Phase.Failed) return;
    // a cache that has not seen our last status write (no restoreName yet) would take the new VM
    // for a clash, or create the restore again
    const c = await this.fresh<K<VMClone>>({ group: CLONE_GROUP, version: CLONE_VERSION, plural: 'virtualmachineclones' }, cached.metadata.namespace ?? 'default', cached.metadata.name ?? '');
    if (!c || c.metadata.deletionTimestamp || c.status?.phase === Phase.Failed) return;
    if (c.status?.phase === Phase.Succeeded) return this.cleanUp(key, c);
    const problem = cloneProblem(c);
    if (problem) return this.fail(c, problem);
    const ns = c.metadata.namespace ?? 'default';
    const target = targetNameOf(c);
    const fromSnapshot = c.spec.source!.kind === 'VirtualMachineSnapshot';
    const restoreName = tmpRestoreName(c);
    if (!c.status?.restoreName && this.vms.get(`${ns}/${target}`)) return this.fail(c, `target VirtualMachine "${target}" already exists`);
    // 1. the snapshot (ours, of the source VM; or the one named)
    const snapshotName = fromSnapshot ? c.spec.source!.name! : tmpSnapshotName(c);
    if (!fromSnapshot && !this.snapshots.get(`${ns}/${snapshotName}`) && !c.status?.restoreName) {
      if (!this.vms.get(`${ns}/${c.spec.source!.name}`)) return this.writeStatus(c, { phase: Phase.SnapshotInProgress, conditions: [{ type: 'Ready', status: 'False', message: `source VirtualMachine "${c.spec.source!.name}" does not exist` }] });
      await this.create(snap('virtualmachinesnapshots'), ns, {
        apiVersion: `${SNAPSHOT_GROUP}/${SNAPSHOT_VERSION}`, kind: 'VirtualMachineSnapshot',
        metadata: { name: snapshotName, namespace: ns, ownerReferences: this.owner(c) },
        spec: { source: { apiGroup: 'kubevirt.io', kind: 'VirtualMachine', name: c.spec.source!.name } },
      });
      return this.writeStatus(c, { phase: Phase.SnapshotInProgress, snapshotName, targetName: target });
    }
    const snapshot = this.snapshots.get(`${ns}/${snapshotName}`);
    if (!c.status?.restoreName) {
      if (!snapshot) return this.writeStatus(c, { phase: Phase.SnapshotInProgress, conditions: [{ type: 'Ready', status: 'False', message: `VirtualMachineSnapshot "${snapshotName}" does not exist` }] });
      if (snapshot.status?.phase === 'Failed') return this.fail(c, `VirtualMachineSnapshot "${snapshotName}" failed: ${snapshot.status.error?.message ?? ''}`.trim());
      if (!snapshot.status?.readyToUse) return this.writeStatus(c, { phase: Phase.SnapshotInProgress, snapshotName, targetName: target });
      // 2. the restore into the new VM, with the clone's changes
      const content = (await this.opts.clients.custom.getNamespacedCustomObject({ ...snap('virtualmachinesnapshotcontents'), namespace: ns, name: snapshot.status.virtualMachineSnapshotContentName ?? '' })) as VMSnapshotContent;
      const patches = clonePatches(c, content.spec.source.virtualMachine as never);
      try {
        await this.create(snap('virtualmachinerestores'), ns, {
          apiVersion: `${SNAPSHOT_GROUP}/${SNAPSHOT_VERSION}`, kind: 'VirtualMachineRestore',
          metadata: { name: restoreName, namespace: ns, ownerReferences: this.owner(c) },
          spec: { target: { apiGroup: 'kubevirt.io', kind: 'VirtualMachine', name: target }, virtualMachineSnapshotName: snapshotName, patches },
        });
      } catch (err) {
        // refused by restore admission (a clone patch outside /spec/, say): that will not change on a retry
        const refused = statusCodeOf(err) === 422 || statusCodeOf(err) === 400;
        if (refused && !(await this.fresh(snap('virtualmachinerestores'), ns, restoreName))) return this.fail(c, messageOf(err));
        if (!refused) throw err;
      }
      return this.writeStatus(c, { phase: Phase.RestoreInProgress, snapshotName, restoreName, targetName: target });
    }
    const restore = this.restores.get(`${ns}/${restoreName}`);
    if (!restore?.status?.complete) {
      const why = restore?.status?.conditions?.find((x) => x.type === 'Ready')?.message;
      return this.writeStatus(c, { phase: Phase.RestoreInProgress, snapshotName, restoreName, targetName: target, ...(why ? { conditions: [{ type: 'Ready', status: 'False', message: why }] } : {}) });
    }
    void this.opts.recorder.record(c, EventTypeNormal, 'CloneSucceeded', `Successfully cloned ${c.spec.source!.kind} ${c.spec.source!.name} into VirtualMachine ${target}`);
    this.log.info({ clone: key, target }, 'clone complete');
    await this.writeStatus(c, { phase: Phase.Succeeded, snapshotName, restoreName, targetName: target }).catch((err: unknown) => { this.log.warn({ err: messageOf(err) }, 'clone status'); });
  }

  /**
   * After success the temporary restore and snapshot go, but only once every new claim is Bound:
   * a WaitForFirstConsumer claim is provisioned (and filled from the snapshot's copy) only when the
   * new VM first runs, so the copy must outlive the clone until then.
   */
  private async cleanUp(key: string, c: K<VMClone>): Promise<void> {
    const ns = c.metadata.namespace ?? 'default';
    const restoreName = tmpRestoreName(c);
    const snapshotName = tmpSnapshotName(c);
    const fromSnapshot = c.spec.source?.kind === 'VirtualMachineSnapshot';
    const restore = this.restores.get(`${ns}/${restoreName}`);
    const ownSnapshot = !fromSnapshot && this.snapshots.get(`${ns}/${snapshotName}`);
    if (!restore && !ownSnapshot) return;
    for (const r of restore?.status?.restores ?? []) {
      const pvc = await this.opts.clients.core.readNamespacedPersistentVolumeClaim({ namespace: ns, name: r.persistentVolumeClaim }).catch(() => undefined);
      if (pvc && pvc.status?.phase !== 'Bound') return void this.controller.enqueueAfter(key, 5_000);
    }
    await this.remove(snap('virtualmachinerestores'), ns, restoreName);
    if (ownSnapshot) await this.remove(snap('virtualmachinesnapshots'), ns, snapshotName);
  }
}
