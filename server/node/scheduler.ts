import type { KubeConfig, V1Node, V1PersistentVolume, V1PersistentVolumeClaim, V1Pod, V1PodCondition, V1StorageClass } from '@kubernetes/client-node';
import { log } from '../log';
import { isConflict, isNotFound } from '../kube/api-errors';
import { makeKubeClients, mergePatch, type KubeClients } from '../kube/clients';
import { Controller } from '../kube/controller';
import { EventRecorder, EventTypeNormal, EventTypeWarning } from '../kube/events';
import { Informer } from '../kube/informer';
import { indexByNodeName } from '../kube/object-store';
import { collectionPath, keyOf, NodeResource, PodResource, splitKey } from '../kube/resources';
import { formatKubeTime } from '../kube/time';
import { isTerminalPod } from './pod-resources';
import { filterNode, formatUnschedulableMessage, type NodeInfo } from './scheduler-filters';
import { pickNode } from './scheduler-score';
import { claimsAwaitingNode, podVolumeProblem, SELECTED_NODE_ANNOTATION, type VolumeCache } from './scheduler-volumes';

export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
export const REASON_UNSCHEDULABLE = 'Unschedulable';
export const EVENT_SCHEDULED = 'Scheduled';
export const EVENT_FAILED_SCHEDULING = 'FailedScheduling';
/** Unschedulable pods are retried on every node/pod change and at least this often (kube: 5 min). */
const UNSCHEDULABLE_FLUSH_MS = 60_000;
/** An assumed binding not yet seen in the cache is dropped after this long. */
const ASSUME_TTL_MS = 30_000;

export function needsScheduling(pod: V1Pod, schedulerName = DEFAULT_SCHEDULER_NAME): boolean {
  return !pod.spec?.nodeName && (pod.spec?.schedulerName ?? DEFAULT_SCHEDULER_NAME) === schedulerName && !pod.metadata?.deletionTimestamp && !isTerminalPod(pod);
}

/**
 * The embedded scheduler: one worker binds pending Pods (pods/binding) to the best feasible node, or
 * marks them PodScheduled=False/Unschedulable with kube's message and retries them on changes.
 * Bindings are "assumed" until the pod cache shows them, so back-to-back pods see each other.
 */
export class Scheduler {
  readonly pods: Informer<V1Pod>;
  readonly nodes: Informer<V1Node>;
  readonly claims: Informer<V1PersistentVolumeClaim>;
  readonly volumes: Informer<V1PersistentVolume>;
  readonly classes: Informer<V1StorageClass>;
  private readonly volumeCache: VolumeCache;
  private readonly controller: Controller;
  private readonly clients: KubeClients;
  private readonly events: EventRecorder;
  private readonly unschedulable = new Set<string>();
  private readonly assumed = new Map<string, { pod: V1Pod; at: number }>();
  private readonly log = log.child({ component: 'scheduler' });

  constructor(kc: KubeConfig, private readonly schedulerName = DEFAULT_SCHEDULER_NAME) {
    this.clients = makeKubeClients(kc);
    this.events = new EventRecorder(this.clients.core, { component: schedulerName });
    this.pods = new Informer<V1Pod>({ kc, path: collectionPath(PodResource), indexers: { node: indexByNodeName } });
    this.nodes = new Informer<V1Node>({ kc, path: collectionPath(NodeResource) });
    this.claims = new Informer<V1PersistentVolumeClaim>({ kc, path: '/api/v1/persistentvolumeclaims' });
    this.volumes = new Informer<V1PersistentVolume>({ kc, path: '/api/v1/persistentvolumes' });
    this.classes = new Informer<V1StorageClass>({ kc, path: '/apis/storage.k8s.io/v1/storageclasses' });
    this.volumeCache = {
      claim: (ns, name) => this.claims.get(`${ns}/${name}`),
      volume: (name) => this.volumes.get(name),
      storageClass: (name) => this.classes.get(name),
    };
    this.controller = new Controller({ name: 'scheduler', informers: [this.pods, this.nodes, this.claims, this.volumes, this.classes], execute: (k) => this.schedule(k) });
    this.pods.on({
      add: (p) => this.onPod(p),
      update: (_, p) => this.onPod(p),
      delete: (p) => {
        this.assumed.delete(keyOf(p));
        this.unschedulable.delete(keyOf(p));
        this.retryUnschedulable();
      },
    });
    const onNode = () => this.retryUnschedulable();
    this.nodes.on({ add: onNode, update: onNode, delete: onNode });
    this.claims.on({ add: onNode, update: onNode, delete: onNode });
    this.volumes.on({ add: onNode, update: onNode, delete: onNode });
    this.classes.on({ add: onNode, update: onNode, delete: onNode });
  }

  async run(signal: AbortSignal): Promise<void> {
    const flush = setInterval(() => this.retryUnschedulable(), UNSCHEDULABLE_FLUSH_MS);
    try {
      await Promise.all([this.pods.run(signal), this.nodes.run(signal), this.claims.run(signal), this.volumes.run(signal), this.classes.run(signal), this.controller.run(signal)]);
    } finally {
      clearInterval(flush);
    }
  }

  private onPod(pod: V1Pod): void {
    const key = keyOf(pod);
    if (needsScheduling(pod, this.schedulerName)) return this.controller.enqueue(key);
    if (this.assumed.delete(key) || isTerminalPod(pod)) this.retryUnschedulable();
  }

  private retryUnschedulable(): void {
    for (const key of this.unschedulable) this.controller.enqueue(key);
  }

  private nodeInfos(): NodeInfo[] {
    const now = Date.now();
    for (const [k, a] of this.assumed) if (now - a.at > ASSUME_TTL_MS) this.assumed.delete(k);
    return this.nodes.list().map((node) => {
      const name = node.metadata?.name ?? '';
      const bound = this.pods.byIndex('node', name);
      const keys = new Set(bound.map(keyOf));
      const assumed = [...this.assumed.values()].filter((a) => a.pod.spec?.nodeName === name && !keys.has(keyOf(a.pod))).map((a) => a.pod);
      return { node, pods: [...bound, ...assumed] };
    });
  }

  private async schedule(key: string): Promise<void> {
    const pod = this.pods.get(key);
    if (!pod || !needsScheduling(pod, this.schedulerName) || this.assumed.has(key)) {
      this.unschedulable.delete(key);
      return;
    }
    const volumeProblem = podVolumeProblem(pod, this.volumeCache);
    if (volumeProblem) {
      this.unschedulable.add(key);
      return this.markUnschedulable(pod, `0/${this.nodes.list().length} nodes are available: ${volumeProblem}.`);
    }
    const infos = this.nodeInfos();
    const results = infos.map((info) => ({ info, fit: filterNode(pod, info, infos, this.volumeCache) }));
    const nodeName = pickNode(pod, results.filter((r) => r.fit.reasons.length === 0));
    if (!nodeName) {
      this.unschedulable.add(key);
      return this.markUnschedulable(pod, formatUnschedulableMessage(results.map((r) => r.fit)));
    }
    this.unschedulable.delete(key);
    await this.selectNodeForClaims(pod, nodeName);
    await this.bind(pod, nodeName);
  }

  private async bind(pod: V1Pod, nodeName: string): Promise<void> {
    const { namespace, name } = splitKey(keyOf(pod));
    try {
      await this.clients.core.createNamespacedPodBinding({
        namespace: namespace!,
        name,
        body: { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace, uid: pod.metadata?.uid }, target: { apiVersion: 'v1', kind: 'Node', name: nodeName } },
      });
    } catch (err) {
      if (isNotFound(err) || isConflict(err)) return; // deleted or bound meanwhile: the cache will tell
      throw err;
    }
    this.assumed.set(keyOf(pod), { pod: { ...pod, spec: { ...pod.spec!, nodeName } }, at: Date.now() });
    this.log.info({ pod: keyOf(pod), node: nodeName }, 'pod bound');
    void this.events.record(pod, EventTypeNormal, EVENT_SCHEDULED, `Successfully assigned ${keyOf(pod)} to ${nodeName}`);
  }

  /** kube's volume binding PreBind: the node goes on each unbound WaitForFirstConsumer claim; the provisioner does the rest */
  private async selectNodeForClaims(pod: V1Pod, nodeName: string): Promise<void> {
    for (const pvc of claimsAwaitingNode(pod, this.volumeCache)) {
      if (pvc.metadata?.annotations?.[SELECTED_NODE_ANNOTATION] === nodeName) continue;
      await this.clients.core.patchNamespacedPersistentVolumeClaim({
        namespace: pvc.metadata!.namespace!, name: pvc.metadata!.name!,
        body: { metadata: { annotations: { [SELECTED_NODE_ANNOTATION]: nodeName } } },
      }, mergePatch);
    }
  }

  private async markUnschedulable(pod: V1Pod, message: string): Promise<void> {
    const conditions = pod.status?.conditions ?? [];
    const current = conditions.find((c) => c.type === 'PodScheduled');
    if (current?.status === 'False' && current.reason === REASON_UNSCHEDULABLE && current.message === message) return;
    const cond: V1PodCondition = { type: 'PodScheduled', status: 'False', reason: REASON_UNSCHEDULABLE, message, lastProbeTime: null as never, lastTransitionTime: (current?.status === 'False' ? current.lastTransitionTime : formatKubeTime()) as never };
    const next = [...conditions.filter((c) => c.type !== 'PodScheduled'), cond];
    const { namespace, name } = splitKey(keyOf(pod));
    try {
      await this.clients.core.patchNamespacedPodStatus({ namespace: namespace!, name, body: { status: { conditions: next } } }, mergePatch);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    this.log.info({ pod: keyOf(pod), message }, 'pod unschedulable');
    void this.events.record(pod, EventTypeWarning, EVENT_FAILED_SCHEDULING, message);
  }
}

