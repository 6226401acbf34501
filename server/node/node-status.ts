import type { V1Lease, V1Node } from '@kubernetes/client-node';
import { log } from '../log';
import { parseQuantity } from '../../lib/kubevirt/quantity';
import { isNotFound, messageOf, statusCodeOf } from '../kube/api-errors';
import { mergePatch, type KubeClients } from '../kube/clients';
import { delay } from '../kube/backoff';
import { formatKubeTime, formatMicroTime } from '../kube/time';
import { pressureMatches, withPressureTaints } from './node-pressure';
import { acceleratorOf, computeCapacity, LABEL_ACCELERATOR, LABEL_CPU_MANAGER, renderNode, renderNodeStatus, type NodeFacts } from './node-object';

export const LEASE_NAMESPACE = 'kube-node-lease';
export const LEASE_DURATION_SECONDS = 40;

export interface NodeStatusOptions {
  clients: KubeClients;
  /** Read on every heartbeat, so a KVM probe that finishes later reaches the Node. */
  facts: () => NodeFacts;
  leaseIntervalMs?: number;
  statusIntervalMs?: number;
}

/** Registers the Node, then keeps its status fresh and renews its Lease (kube-node-lease) until stopped. */
export class NodeStatusReporter {
  private readonly log;
  private readonly since = new Date();
  private nodeUID?: string;

  constructor(private readonly opts: NodeStatusOptions) {
    this.log = log.child({ component: 'kubelet', node: opts.facts().name });
  }

  async register(): Promise<void> {
    const node = renderNode(this.opts.facts(), this.since);
    const { core } = this.opts.clients;
    try {
      const created = await core.createNode({ body: node });
      this.nodeUID = created.metadata?.uid;
      this.log.info('node registered');
    } catch (err) {
      if (statusCodeOf(err) !== 409) throw err;
      const patched = await core.patchNode({ name: node.metadata!.name!, body: { metadata: { labels: node.metadata!.labels } } }, mergePatch);
      this.nodeUID = patched.metadata?.uid;
      this.log.info('node already registered; labels refreshed');
    }
    await this.updateStatus();
  }

  async updateStatus(): Promise<void> {
    const facts = this.opts.facts();
    const status = renderNodeStatus(facts);
    for (const c of status.conditions ?? []) (c as { lastTransitionTime?: unknown }).lastTransitionTime = formatKubeTime(this.since);
    // only the accelerator label follows the probe; kubevirt.io/schedulable belongs to virt-handler after registration
    const labels = { [LABEL_ACCELERATOR]: acceleratorOf(facts.kvmUsable), [LABEL_CPU_MANAGER]: String(Boolean(facts.cpuManager)) };
    const { core } = this.opts.clients;
    await core.patchNodeStatus({ name: facts.name, body: { metadata: { labels }, status } as V1Node }, mergePatch);
    await this.updatePressureTaints();
  }

  /** memory-pressure / disk-pressure NoSchedule taints follow the conditions (other taints untouched). */
  private async updatePressureTaints(): Promise<void> {
    const { name, pressure = { memory: false, disk: false } } = this.opts.facts();
    const { core } = this.opts.clients;
    const node = await core.readNode({ name });
    const want = withPressureTaints(node.spec?.taints, pressure);
    const key = (ts: typeof want) => JSON.stringify(ts.map((t) => [t.key, t.effect, t.value ?? '']).sort());
    if (key(want) === key(node.spec?.taints ?? [])) return;
    const body = { metadata: { resourceVersion: node.metadata?.resourceVersion }, spec: { taints: want } };
    await core.patchNode({ name, body }, mergePatch);
    this.log.info({ pressure }, 'pressure taints updated');
  }

  async renewLease(): Promise<void> {
    const name = this.opts.facts().name;
    const { coordination } = this.opts.clients;
    const spec = { holderIdentity: name, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime: formatMicroTime() };
    try {
      await coordination.patchNamespacedLease({ name, namespace: LEASE_NAMESPACE, body: { spec } }, mergePatch);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await this.ensureLeaseNamespace();
      const ownerReferences = this.nodeUID ? [{ apiVersion: 'v1', kind: 'Node', name, uid: this.nodeUID }] : undefined;
      const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: LEASE_NAMESPACE, ownerReferences }, spec } as unknown as V1Lease;
      await coordination.createNamespacedLease({ namespace: LEASE_NAMESPACE, body: lease });
    }
  }

  /** Heartbeats until the signal aborts; failures are logged and retried on the next tick. */
  async run(signal: AbortSignal): Promise<void> {
    const leaseEvery = this.opts.leaseIntervalMs ?? 10_000;
    const statusEvery = this.opts.statusIntervalMs ?? 60_000;
    let lastStatus = Date.now();
    while (!signal.aborted) {
      await this.tick(() => this.renewLease(), 'lease renewal failed');
      if (Date.now() - lastStatus >= statusEvery || (await this.isStatusStale())) {
        lastStatus = Date.now();
        await this.tick(() => this.updateStatus(), 'node status update failed');
      }
      await delay(leaseEvery, signal);
    }
  }

  /** Someone else changed what we report (Ready=Unknown after a lease timeout, a newer KVM probe). */
  private async isStatusStale(): Promise<boolean> {
    const facts = this.opts.facts();
    try {
      const node = await this.opts.clients.core.readNode({ name: facts.name });
      const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
      if (!pressureMatches(node.status?.conditions, facts.pressure ?? { memory: false, disk: false })) return true;
      // vm.nr_hugepages changed on the host
      const cap = computeCapacity(facts);
      if (Object.keys(facts.hugepages ?? {}).some((k) => parseQuantity(node.status?.capacity?.[k]) !== parseQuantity(cap[k]))) return true;
      return ready?.status !== 'True' || node.metadata?.labels?.[LABEL_ACCELERATOR] !== acceleratorOf(facts.kvmUsable);
    } catch (err) {
      if (isNotFound(err)) await this.tick(() => this.register(), 'node re-registration failed'); // the Node was deleted
      return false;
    }
  }

  private async tick(fn: () => Promise<void>, msg: string): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.log.warn({ err: messageOf(err) }, msg);
    }
  }

  private async ensureLeaseNamespace(): Promise<void> {
    try {
      await this.opts.clients.core.createNamespace({ body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: LEASE_NAMESPACE } } });
    } catch (err) {
      if (statusCodeOf(err) !== 409) throw err;
    }
  }
}
