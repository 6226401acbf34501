/**
 * kube-controller-manager's DaemonSet controller, wired: DaemonSets, Pods and Nodes enqueue the
 * DaemonSet; `execute` plans from the caches (daemonset-plan.ts), creates and deletes Pods with
 * expectations, and writes the status once.
 */
import type { KubernetesObject, V1Node, V1Pod } from '@kubernetes/client-node';
import { sameJSON } from '../../lib/kubevirt';
import { isNotFound, messageOf } from '../kube/api-errors';
import { Controller } from '../kube/controller';
import { EventTypeNormal, EventTypeWarning, type EventRecorder } from '../kube/events';
import { Expectations } from '../kube/expectations';
import type { Informer } from '../kube/informer';
import { keyOf, PodResource } from '../kube/resources';
import { daemonSetHash, renderDaemonPod } from './daemonset-pods';
import { planDaemonSet } from './daemonset-plan';
import { claimObjects, controllerRef, ownerReference } from './owned-pods';
import { nextAvailableIn } from './pod-availability';
import { DaemonSetResource, type DaemonSet } from './resources';
import type { WorkloadApi } from './workload-api';

export interface DaemonSetControllerDeps {
  api: WorkloadApi;
  daemonSets: Informer<KubernetesObject>;
  pods: Informer<KubernetesObject>;
  nodes: Informer<KubernetesObject>;
  recorder: EventRecorder;
}

const asDS = (o: KubernetesObject) => o as DaemonSet;
const asPod = (o: KubernetesObject) => o as V1Pod;

export class DaemonSetController {
  readonly expectations = new Expectations();
  readonly controller: Controller;

  constructor(private readonly deps: DaemonSetControllerDeps) {
    this.controller = new Controller({ name: 'daemonset-controller', execute: (key) => this.execute(key), informers: [deps.daemonSets, deps.pods, deps.nodes], workers: 2 });
    deps.daemonSets.on({
      ...this.controller.enqueueHandlers(),
      delete: (ds) => { this.expectations.deleteExpectations(keyOf(ds)); this.controller.enqueue(ds); },
    });
    const onPod = (p: KubernetesObject, observe?: (key: string) => void) => {
      const ref = controllerRef(p);
      if (!ref) { this.enqueueAll(p.metadata?.namespace); return; }
      if (ref.kind !== 'DaemonSet') return;
      const key = `${p.metadata!.namespace}/${ref.name}`;
      observe?.(key);
      this.controller.enqueue(key);
    };
    deps.pods.on({
      add: (p) => onPod(p, (key) => this.expectations.creationObserved(key)),
      update: (old, p) => {
        if (p.metadata?.deletionTimestamp && !old.metadata?.deletionTimestamp) onPod(p, (key) => this.expectations.deletionObserved(key, p.metadata?.uid));
        else onPod(p);
      },
      delete: (p) => onPod(p, (key) => this.expectations.deletionObserved(key, p.metadata?.uid)),
    });
    // a Node added, removed, relabelled, tainted or turning Ready changes where daemons run
    deps.nodes.on({ add: () => this.enqueueAll(), update: (old, n) => { if (!sameJSON(nodeFacts(old), nodeFacts(n))) this.enqueueAll(); }, delete: () => this.enqueueAll() });
  }

  run(signal: AbortSignal): Promise<void> {
    return this.controller.run(signal);
  }

  private enqueueAll(namespace?: string): void {
    for (const ds of this.deps.daemonSets.list((d) => namespace === undefined || d.metadata?.namespace === namespace)) this.controller.enqueue(ds);
  }

  async execute(key: string): Promise<void> {
    const obj = this.deps.daemonSets.get(key);
    if (!obj) { this.expectations.deleteExpectations(key); return; }
    const ds = asDS(obj);
    const ns = ds.metadata!.namespace!;
    const claim = claimObjects(ds, this.deps.pods.list((p) => p.metadata?.namespace === ns).map(asPod));
    for (const p of claim.adopt) {
      await this.deps.api.mergePatch(PodResource, ns, p.metadata!.name!, { metadata: { ownerReferences: [...(p.metadata?.ownerReferences ?? []), ownerReference('DaemonSet', ds)], uid: p.metadata!.uid } });
    }
    const owned = [...claim.owned, ...claim.adopt];
    const now = Date.now();
    const hash = daemonSetHash(ds);
    const plan = planDaemonSet(ds, this.deps.nodes.list().map((n) => n as V1Node), owned, hash, now);
    let failure: string | undefined;
    if (this.expectations.satisfied(key) && !ds.metadata?.deletionTimestamp) failure = await this.act(key, ds, plan.create, plan.remove, hash);
    await this.writeStatus(ds, plan.status);
    const wait = nextAvailableIn(owned, ds.spec?.minReadySeconds ?? 0, now);
    if (wait !== undefined) this.controller.enqueueAfter(key, wait + 50);
    if (failure) throw new Error(failure);
  }

  private async act(key: string, ds: DaemonSet, create: string[], remove: V1Pod[], hash: string): Promise<string | undefined> {
    const kobj = ds as KubernetesObject;
    const victims = [...new Set(remove)];
    // one record for both: deletions by UID, then the creations on top
    this.expectations.expectDeletions(key, victims.map((p) => p.metadata!.uid!));
    this.expectations.raiseExpectations(key, create.length);
    const errors: string[] = [];
    await Promise.all(create.map(async (node) => {
      try {
        const pod = await this.deps.api.createPod(ds.metadata!.namespace!, renderDaemonPod(ds, node, hash));
        void this.deps.recorder.record(kobj, EventTypeNormal, 'SuccessfulCreate', `Created pod: ${pod.metadata?.name}`);
      } catch (err) {
        this.expectations.lowerExpectations(key, 1);
        void this.deps.recorder.record(kobj, EventTypeWarning, 'FailedCreate', `Error creating: ${messageOf(err)}`);
        errors.push(messageOf(err));
      }
    }));
    if (victims.length) {
      await Promise.all(victims.map(async (p) => {
        try {
          await this.deps.api.delete(PodResource, p.metadata!.namespace!, p.metadata!.name!, p.metadata!.uid);
          void this.deps.recorder.record(kobj, EventTypeNormal, 'SuccessfulDelete', `Deleted pod: ${p.metadata!.name}`);
        } catch (err) {
          this.expectations.deletionObserved(key, p.metadata!.uid);
          if (!isNotFound(err)) errors.push(messageOf(err));
        }
      }));
    }
    return errors[0];
  }

  private async writeStatus(ds: DaemonSet, status: ReturnType<typeof planDaemonSet>['status']): Promise<void> {
    if (sameJSON(status, ds.status ?? {})) return;
    try {
      await this.deps.api.mergePatch(DaemonSetResource, ds.metadata!.namespace!, ds.metadata!.name!, { status }, 'status');
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

function nodeFacts(n: KubernetesObject): unknown {
  const node = n as V1Node;
  return { labels: node.metadata?.labels, taints: node.spec?.taints, unschedulable: node.spec?.unschedulable };
}
