/**
 * kube-controller-manager's ReplicaSet controller: keeps `spec.replicas` active Pods from the
 * template (generateName `<rs>-`, controller reference), adopts matching orphans, releases Pods
 * whose labels left the selector, deletes surplus Pods (unscheduled, pending, not ready, newest
 * first) and writes status (replicas, fullyLabeled, ready, available after minReadySeconds).
 * Expectations keep a sync on a lagging cache from creating twice.
 */
import type { KubernetesObject, V1Pod } from '@kubernetes/client-node';
import { sameJSON } from '../../lib/kubevirt';
import { isNotFound, messageOf } from '../kube/api-errors';
import { Controller } from '../kube/controller';
import { EventTypeNormal, EventTypeWarning, type EventRecorder } from '../kube/events';
import { Expectations } from '../kube/expectations';
import type { Informer } from '../kube/informer';
import { keyOf, PodResource } from '../kube/resources';
import { claimObjects, controllerRef, deletionOrder, ownerReference } from './owned-pods';
import { isPodActive, nextAvailableIn } from './pod-availability';
import { computeReplicaSetStatus, type ReplicaFailure } from './replicaset-status';
import { ReplicaSetResource, type ReplicaSet } from './resources';
import type { WorkloadApi } from './workload-api';

/** kube's burstReplicas: at most this many creates or deletes per sync */
const BURST = 500;

export interface ReplicaSetControllerDeps {
  api: WorkloadApi;
  sets: Informer<KubernetesObject>;
  pods: Informer<KubernetesObject>;
  recorder: EventRecorder;
}

const asRS = (o: KubernetesObject) => o as ReplicaSet;
const asPod = (o: KubernetesObject) => o as V1Pod;

/** the Pod a ReplicaSet creates from its template */
export function podFromTemplate(rs: ReplicaSet, kind = 'ReplicaSet'): V1Pod {
  const t = rs.spec?.template;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: `${rs.metadata!.name}-`,
      namespace: rs.metadata!.namespace,
      labels: { ...(t?.metadata?.labels ?? {}) },
      ...(t?.metadata?.annotations ? { annotations: { ...t.metadata.annotations } } : {}),
      ownerReferences: [ownerReference(kind, rs)],
    },
    spec: structuredClone(t?.spec ?? { containers: [] }),
  };
}

export class ReplicaSetController {
  readonly expectations = new Expectations();
  readonly controller: Controller;

  constructor(private readonly deps: ReplicaSetControllerDeps) {
    this.controller = new Controller({ name: 'replicaset-controller', execute: (key) => this.execute(key), informers: [deps.sets, deps.pods], workers: 2 });
    deps.sets.on({
      ...this.controller.enqueueHandlers(),
      delete: (rs) => { this.expectations.deleteExpectations(keyOf(rs)); this.controller.enqueue(rs); },
    });
    deps.pods.on({
      add: (p) => this.onPod(asPod(p), (key) => this.expectations.creationObserved(key)),
      update: (old, p) => {
        if (p.metadata?.deletionTimestamp && !old.metadata?.deletionTimestamp) this.onPod(asPod(p), (key) => this.expectations.deletionObserved(key, p.metadata?.uid));
        else this.onPod(asPod(p));
        if (!sameJSON(old.metadata?.labels ?? {}, p.metadata?.labels ?? {})) this.enqueueMatching(asPod(old));
      },
      delete: (p) => this.onPod(asPod(p), (key) => this.expectations.deletionObserved(key, p.metadata?.uid)),
    });
  }

  run(signal: AbortSignal): Promise<void> {
    return this.controller.run(signal);
  }

  private onPod(pod: V1Pod, observe?: (key: string) => void): void {
    const ref = controllerRef(pod);
    if (ref) {
      if (ref.kind !== 'ReplicaSet' || ref.apiVersion?.split('/')[0] !== 'apps') return;
      const key = `${pod.metadata!.namespace}/${ref.name}`;
      observe?.(key);
      this.controller.enqueue(key);
      return;
    }
    this.enqueueMatching(pod);
  }

  private enqueueMatching(pod: V1Pod): void {
    for (const rs of this.deps.sets.list((s) => s.metadata?.namespace === pod.metadata?.namespace)) {
      if (claimObjects(asRS(rs), [pod]).adopt.length) this.controller.enqueue(rs);
    }
  }

  async execute(key: string): Promise<void> {
    const obj = this.deps.sets.get(key);
    if (!obj) { this.expectations.deleteExpectations(key); return; }
    const rs = asRS(obj);
    const ns = rs.metadata!.namespace!;
    const pods = this.deps.pods.list((p) => p.metadata?.namespace === ns).map(asPod);
    const claim = claimObjects(rs, pods);
    await this.adoptAndRelease(rs, claim.adopt, claim.release);
    const owned = [...claim.owned, ...claim.adopt];
    let failure: ReplicaFailure | undefined;
    if (this.expectations.satisfied(key) && !rs.metadata?.deletionTimestamp) failure = await this.manageReplicas(key, rs, owned.filter(isPodActive));
    const now = new Date();
    await this.writeStatus(rs, computeReplicaSetStatus(rs, owned, failure, now));
    const wait = nextAvailableIn(owned.filter(isPodActive), rs.spec?.minReadySeconds ?? 0, now.getTime());
    if (wait !== undefined) this.controller.enqueueAfter(key, wait + 50);
    if (failure) throw new Error(failure.message);
  }

  private async adoptAndRelease(rs: ReplicaSet, adopt: V1Pod[], release: V1Pod[]): Promise<void> {
    const ns = rs.metadata!.namespace!;
    for (const p of adopt) {
      await this.deps.api.mergePatch(PodResource, ns, p.metadata!.name!, { metadata: { ownerReferences: [...(p.metadata?.ownerReferences ?? []), ownerReference('ReplicaSet', rs)], uid: p.metadata!.uid } });
    }
    for (const p of release) {
      const refs = (p.metadata?.ownerReferences ?? []).filter((r) => r.uid !== rs.metadata!.uid);
      await this.deps.api.mergePatch(PodResource, ns, p.metadata!.name!, { metadata: { ownerReferences: refs, uid: p.metadata!.uid } })
        .catch((err) => { if (!isNotFound(err)) throw err; });
    }
  }

  private async manageReplicas(key: string, rs: ReplicaSet, active: V1Pod[]): Promise<ReplicaFailure | undefined> {
    const diff = active.length - (rs.spec?.replicas ?? 1);
    const kobj = rs as KubernetesObject;
    if (diff < 0) {
      const n = Math.min(-diff, BURST);
      this.expectations.expectCreations(key, n);
      const results = await Promise.all(Array.from({ length: n }, async (): Promise<ReplicaFailure | undefined> => {
        try {
          const pod = await this.deps.api.createPod(rs.metadata!.namespace!, podFromTemplate(rs));
          void this.deps.recorder.record(kobj, EventTypeNormal, 'SuccessfulCreate', `Created pod: ${pod.metadata?.name}`);
          return undefined;
        } catch (err) {
          this.expectations.lowerExpectations(key, 1);
          void this.deps.recorder.record(kobj, EventTypeWarning, 'FailedCreate', `Error creating: ${messageOf(err)}`);
          return { reason: 'FailedCreate', message: messageOf(err) };
        }
      }));
      return results.find(Boolean);
    }
    if (diff > 0) {
      const victims = [...active].sort(deletionOrder).slice(0, Math.min(diff, BURST));
      this.expectations.expectDeletions(key, victims.map((p) => p.metadata!.uid!));
      const results = await Promise.all(victims.map(async (p): Promise<ReplicaFailure | undefined> => {
        try {
          await this.deps.api.delete(PodResource, p.metadata!.namespace!, p.metadata!.name!, p.metadata!.uid);
          void this.deps.recorder.record(kobj, EventTypeNormal, 'SuccessfulDelete', `Deleted pod: ${p.metadata!.name}`);
          return undefined;
        } catch (err) {
          this.expectations.deletionObserved(key, p.metadata!.uid);
          if (isNotFound(err)) return undefined;
          return { reason: 'FailedDelete', message: messageOf(err) };
        }
      }));
      return results.find(Boolean);
    }
    return undefined;
  }

  private async writeStatus(rs: ReplicaSet, status: ReturnType<typeof computeReplicaSetStatus>): Promise<void> {
    const old: Partial<typeof status> = rs.status ?? {};
    if (sameJSON({ ...status, conditions: status.conditions ?? [] }, { ...old, conditions: old.conditions ?? [] })) return;
    try {
      await this.deps.api.mergePatch(ReplicaSetResource, rs.metadata!.namespace!, rs.metadata!.name!, { status: { ...status, conditions: status.conditions ?? null } }, 'status');
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
