/**
 * kube-controller-manager's Deployment controller: the Deployment's template lives in a
 * ReplicaSet named `<deployment>-<pod-template-hash>`; a template change creates the next
 * revision's set and moves Pods across — RollingUpdate within maxSurge/maxUnavailable, or
 * Recreate (old Pods gone first) — then keeps revisionHistoryLimit old sets at 0 replicas (what
 * `kubectl rollout undo` returns to). Status and conditions come from the sets' status.
 */
import type { KubernetesObject, V1DeploymentStatus } from '@kubernetes/client-node';
import { sameJSON } from '../../lib/kubevirt';
import { isConflict, isNotFound } from '../kube/api-errors';
import { Controller } from '../kube/controller';
import { EventTypeNormal, type EventRecorder } from '../kube/events';
import type { Informer } from '../kube/informer';

import { byAge, findNewReplicaSet, maxRevision, renderNewReplicaSet, revisionOf } from './deployment-revisions';
import { computeDeploymentStatus, type ProgressEvent } from './deployment-status';
import { claimObjects, controllerRef, ownerReference } from './owned-pods';
import { newReplicaSetReplicas, resolveFenceposts, scaleDownOldSets } from './rollout-math';
import {
  DeploymentResource, DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, ReplicaSetResource, REVISION_ANNOTATION, type Deployment, type ReplicaSet,
} from './resources';
import type { WorkloadApi } from './workload-api';

export interface DeploymentControllerDeps {
  api: WorkloadApi;
  deployments: Informer<KubernetesObject>;
  sets: Informer<KubernetesObject>;
  recorder: EventRecorder;
}

const asD = (o: KubernetesObject) => o as Deployment;
const asRS = (o: KubernetesObject) => o as ReplicaSet;

export class DeploymentController {
  readonly controller: Controller;

  constructor(private readonly deps: DeploymentControllerDeps) {
    this.controller = new Controller({ name: 'deployment-controller', execute: (key) => this.execute(key), informers: [deps.deployments, deps.sets], workers: 2 });
    deps.deployments.on(this.controller.enqueueHandlers());
    const onSet = (o: KubernetesObject) => {
      const ref = controllerRef(o);
      if (ref) { if (ref.kind === 'Deployment') this.controller.enqueue(`${o.metadata!.namespace}/${ref.name}`); return; }
      for (const d of deps.deployments.list((x) => x.metadata?.namespace === o.metadata?.namespace)) {
        if (claimObjects(asD(d), [asRS(o)]).adopt.length) this.controller.enqueue(d);
      }
    };
    deps.sets.on({ add: onSet, update: (_, o) => onSet(o), delete: onSet });
  }

  run(signal: AbortSignal): Promise<void> {
    return this.controller.run(signal);
  }

  async execute(key: string): Promise<void> {
    const obj = this.deps.deployments.get(key);
    if (!obj) return;
    const d = structuredClone(asD(obj));
    const ns = d.metadata!.namespace!;
    const claim = claimObjects(d, this.deps.sets.list((s) => s.metadata?.namespace === ns).map(asRS));
    for (const rs of claim.adopt) await this.patchSet(rs, { metadata: { ownerReferences: [...(rs.metadata?.ownerReferences ?? []), ownerReference('Deployment', d)], uid: rs.metadata!.uid } });
    for (const rs of claim.release) await this.patchSet(rs, { metadata: { ownerReferences: (rs.metadata?.ownerReferences ?? []).filter((r) => r.uid !== d.metadata!.uid), uid: rs.metadata!.uid } });
    const all = [...claim.owned, ...claim.adopt].map((rs) => structuredClone(rs));
    let newRS = findNewReplicaSet(d, all);
    const progress: ProgressEvent = {};
    if (!d.metadata?.deletionTimestamp && !d.spec?.paused) {
      newRS = d.spec?.strategy?.type === 'Recreate' ? await this.recreate(d, all, newRS, progress) : await this.rollingUpdate(d, all, newRS, progress);
      if (newRS && !all.includes(newRS)) all.push(newRS);
      await this.cleanup(d, all.filter((rs) => rs !== newRS));
    }
    if (newRS) await this.syncRevisionAnnotation(d, newRS);
    await this.writeStatus(d, computeDeploymentStatus(d, all, newRS, new Date(), progress));
  }

  private async patchSet(rs: ReplicaSet, patch: object): Promise<void> {
    try {
      await this.deps.api.mergePatch(ReplicaSetResource, rs.metadata!.namespace!, rs.metadata!.name!, patch);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** sets a ReplicaSet's replicas (and the desired/max annotations), in the cache copy too */
  private async scale(d: Deployment, rs: ReplicaSet, replicas: number, surge: number): Promise<void> {
    const desired = d.spec?.replicas ?? 1;
    const annotations = { [DESIRED_REPLICAS_ANNOTATION]: String(desired), [MAX_REPLICAS_ANNOTATION]: String(desired + surge) };
    const from = rs.spec?.replicas ?? 0;
    if (from === replicas && Object.entries(annotations).every(([k, v]) => rs.metadata?.annotations?.[k] === v)) return;
    await this.patchSet(rs, { metadata: { annotations }, spec: { replicas } });
    rs.spec = { ...rs.spec!, replicas };
    rs.metadata!.annotations = { ...(rs.metadata!.annotations ?? {}), ...annotations };
    if (from !== replicas) {
      void this.deps.recorder.record(d as KubernetesObject, EventTypeNormal, 'ScalingReplicaSet', `Scaled ${replicas > from ? 'up' : 'down'} replica set ${rs.metadata!.name} from ${from} to ${replicas}`);
    }
  }

  private async createNewSet(d: Deployment, old: ReplicaSet[], replicas: number, surge: number, progress: ProgressEvent): Promise<ReplicaSet> {
    const body = renderNewReplicaSet(d, maxRevision(old) + 1, replicas, surge);
    try {
      const created = await this.deps.api.create<ReplicaSet>(ReplicaSetResource, d.metadata!.namespace!, body);
      progress.newSetCreated = true;
      void this.deps.recorder.record(d as KubernetesObject, EventTypeNormal, 'ScalingReplicaSet', `Scaled up replica set ${created.metadata!.name} from 0 to ${replicas}`);
      return created;
    } catch (err) {
      if (!isConflict(err)) throw err;
      // a ReplicaSet of that name with another template: the next collision count gives another hash
      await this.deps.api.mergePatch(DeploymentResource, d.metadata!.namespace!, d.metadata!.name!, { status: { collisionCount: (d.status?.collisionCount ?? 0) + 1 } }, 'status');
      throw new Error(`replica set ${body.metadata!.name} exists with another template; retrying with the next collision count`, { cause: err });
    }
  }

  private async rollingUpdate(d: Deployment, all: ReplicaSet[], newRS: ReplicaSet | undefined, progress: ProgressEvent): Promise<ReplicaSet | undefined> {
    const desired = d.spec?.replicas ?? 1;
    const ru = d.spec?.strategy?.rollingUpdate;
    const { surge, unavailable } = resolveFenceposts(ru?.maxSurge as number | string | undefined, ru?.maxUnavailable as number | string | undefined, desired);
    const old = all.filter((rs) => rs !== newRS).sort(byAge);
    const total = () => all.reduce((n, rs) => n + (rs.spec?.replicas ?? 0), 0);
    if (!newRS) {
      newRS = await this.createNewSet(d, old, newReplicaSetReplicas(desired, surge, 0, total()), surge, progress);
    } else {
      await this.promote(newRS, old);
      const current = newRS.spec?.replicas ?? 0;
      const target = current > desired ? desired : newReplicaSetReplicas(desired, surge, current, total());
      if (target !== current) progress.scaledOrCreated = true;
      await this.scale(d, newRS, target, surge);
    }
    const cuts = scaleDownOldSets(desired, unavailable,
      old.map((rs) => ({ name: rs.metadata!.name!, replicas: rs.spec?.replicas ?? 0, available: rs.status?.availableReplicas ?? 0 })),
      { replicas: newRS.spec?.replicas ?? 0, available: newRS.status?.availableReplicas ?? 0 });
    for (const rs of old) {
      const to = cuts.get(rs.metadata!.name!);
      if (to !== undefined) { progress.scaledOrCreated = true; await this.scale(d, rs, to, surge); }
    }
    return newRS;
  }

  /** Recreate: every old Pod gone before the new set gets any */
  private async recreate(d: Deployment, all: ReplicaSet[], newRS: ReplicaSet | undefined, progress: ProgressEvent): Promise<ReplicaSet | undefined> {
    const old = all.filter((rs) => rs !== newRS);
    for (const rs of old) if ((rs.spec?.replicas ?? 0) > 0) { progress.scaledOrCreated = true; await this.scale(d, rs, 0, 0); }
    if (old.some((rs) => (rs.status?.replicas ?? 0) > 0)) return newRS;
    const desired = d.spec?.replicas ?? 1;
    if (!newRS) return this.createNewSet(d, old, desired, 0, progress);
    await this.promote(newRS, old);
    if ((newRS.spec?.replicas ?? 0) !== desired) progress.scaledOrCreated = true;
    await this.scale(d, newRS, desired, 0);
    return newRS;
  }

  /** an old revision's set that became current again (`kubectl rollout undo`) gets the next revision number */
  private async promote(newRS: ReplicaSet, old: ReplicaSet[]): Promise<void> {
    const top = maxRevision(old);
    if (revisionOf(newRS) > top) return;
    const revision = String(top + 1);
    await this.patchSet(newRS, { metadata: { annotations: { [REVISION_ANNOTATION]: revision } } });
    newRS.metadata!.annotations = { ...(newRS.metadata!.annotations ?? {}), [REVISION_ANNOTATION]: revision };
  }

  private async syncRevisionAnnotation(d: Deployment, newRS: ReplicaSet): Promise<void> {
    const revision = String(revisionOf(newRS));
    if (revision === '0' || d.metadata?.annotations?.[REVISION_ANNOTATION] === revision) return;
    try {
      await this.deps.api.mergePatch(DeploymentResource, d.metadata!.namespace!, d.metadata!.name!, { metadata: { annotations: { [REVISION_ANNOTATION]: revision } } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** old sets with no Pods beyond revisionHistoryLimit are deleted, oldest revision first */
  private async cleanup(d: Deployment, old: ReplicaSet[]): Promise<void> {
    const limit = d.spec?.revisionHistoryLimit ?? 10;
    const idle = old.filter((rs) => (rs.spec?.replicas ?? 0) === 0 && (rs.status?.replicas ?? 0) === 0 && !rs.metadata?.deletionTimestamp)
      .sort((a, b) => revisionOf(a) - revisionOf(b) || byAge(a, b));
    for (const rs of idle.slice(0, Math.max(0, idle.length - limit))) {
      await this.deps.api.delete(ReplicaSetResource, rs.metadata!.namespace!, rs.metadata!.name!, rs.metadata!.uid).catch((err) => { if (!isNotFound(err)) throw err; });
    }
  }

  private async writeStatus(d: Deployment, status: V1DeploymentStatus): Promise<void> {
    if (sameJSON(status, d.status ?? {})) return;
    try {
      await this.deps.api.mergePatch(DeploymentResource, d.metadata!.namespace!, d.metadata!.name!, { status }, 'status');
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

