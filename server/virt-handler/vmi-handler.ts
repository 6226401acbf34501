/**
 * virt-handler's VMI loop for one node: drives the launchers of the VMIs whose status.nodeName is
 * this node and writes what it sees into their status (once, only if changed).
 * KubeVirt's handler watches by the `kubevirt.io/nodeName` label; we watch all VMIs and filter on
 * status.nodeName, so a label write the admission webhook refuses (the controller not running as
 * a KubeVirt service account) cannot strand a VMI. Fine at embedded scale; see the report.
 */
import { isDeepStrictEqual } from 'node:util';
import type { KubernetesObject } from '@kubernetes/client-node';
import type { VirtualMachineInstance, VirtualMachineInstanceStatus } from '../../lib/kubevirt';
import type { KubeClients } from '../kube/clients';
import { Controller } from '../kube/controller';
import { EventTypeNormal, EventTypeWarning, type EventRecorder } from '../kube/events';
import { Informer } from '../kube/informer';
import { OwnWrites } from '../kube/own-writes';
import { collectionPath, VirtualMachineInstanceResource } from '../kube/resources';
import { log } from '../log';
import { computeDomainStatus, isAgentConnected } from './compute-domain-status';
import { Phase, Reason } from './constants';
import { LauncherConnections } from './launcher-connections';
import { forgetGuestInfo, observeLauncher } from './observe-launcher';
import { apiInputReader, resolveLauncherInputs, type InputReader } from './launcher-inputs';
import { podDirOf, podUIDOnNode } from './pod-dir';
import { LauncherReadiness } from './launcher-readiness';
import { LauncherPods } from './launcher-pods';
import { computeVMIReady, handlerOwnsReady } from '../../lib/kubevirt/vmi-ready';
import { setCondition } from '../../lib/kubevirt/conditions';
import { hasHotplugWork, wantedHotplugDisks, withAttachedDisks } from './hotplug-volumes';
import { withVolumeTargets } from './volume-targets';
import { AccessCredentialSync, secretReader } from './access-credentials';
import { wantedSockets, withCPUResult } from './cpu-hotplug';
import { LauncherError } from '../virt-launcher/launcher-client';
import { LAUNCHER_ERRORS } from '../virt-launcher/protocol';
import { MEMORY_HOTPLUG_FAILED_REASON, wantedGuestBytes, withGuestCurrent, withMemoryResult } from './memory-hotplug';

export interface VMIHandlerOptions {
  node: string;
  dataDir: string;
  clients: KubeClients;
  recorder: EventRecorder;
}

/** While the launcher is not listening yet. */
const LAUNCHER_POLL_MS = 50;
/** the launcher answered and refused (not: the connection dropped, it timed out) */
const isLauncherRefusal = (err: unknown) => err instanceof LauncherError && (err.reason === LAUNCHER_ERRORS.badRequest || err.reason === LAUNCHER_ERRORS.qmp);
/** a memory hotplug the launcher could not be asked for yet is asked again after this */
const MEMORY_RETRY_MS = 1000;
/** Refresh of guest-agent data for running VMIs. */
const RESYNC_MS = 15_000;

const isFinal = (p?: string) => p === Phase.Succeeded || p === Phase.Failed;

export class VMIHandler {
  readonly vmis: Informer<VirtualMachineInstance & KubernetesObject>;
  readonly connections: LauncherConnections;
  private readonly controller: Controller;
  private readonly log;
  private readonly readiness: LauncherReadiness;
  private readonly credentials: AccessCredentialSync;
  /** the VMI versions our status writes replaced: a sync that still sees one waits for our write's event */
  private readonly ownWrites = new OwnWrites();
  private readonly inputReader: InputReader;
  /** this node's launcher Pods: Ready follows the Pod's readiness while the VMI is Running */
  private readonly pods: LauncherPods;

  constructor(private readonly opts: VMIHandlerOptions) {
    this.log = log.child({ component: 'virt-handler', node: opts.node });
    this.vmis = new Informer({ kc: opts.clients.kc, path: collectionPath(VirtualMachineInstanceResource) });
    this.pods = new LauncherPods(opts.clients.kc, opts.node, (key) => this.controller.enqueue(key));
    this.controller = new Controller({ name: 'virt-handler', execute: (k) => this.execute(k), informers: [this.vmis, this.pods.informer], workers: 4 });
    this.connections = new LauncherConnections((key) => this.controller.enqueue(key));
    this.readiness = new LauncherReadiness(opts.clients.core, (uid) => this.pods.byUID(uid));
    this.inputReader = apiInputReader(opts.clients.core);
    this.credentials = new AccessCredentialSync(
      secretReader(opts.clients.core),
      async (podDir, key, creds) => { await this.connections.get(podDir, key).client.request('setAccessCredentials', creds); },
      (key) => this.controller.enqueue(key),
    );
    const mine = (vmi: VirtualMachineInstance | undefined) => vmi?.status?.nodeName === opts.node;
    this.vmis.on({
      add: (vmi) => { if (mine(vmi)) this.controller.enqueue(vmi); },
      update: (_old, vmi) => { if (mine(vmi)) this.controller.enqueue(vmi); },
      delete: (vmi) => { this.ownWrites.forget(`${vmi.metadata?.namespace}/${vmi.metadata?.name}`); if (mine(vmi)) this.controller.enqueue(vmi); },
    });
  }

  async run(signal: AbortSignal): Promise<void> {
    await Promise.all([this.vmis.run(signal), this.pods.informer.run(signal), this.controller.run(signal)]);
    this.connections.closeAll(); // after the workers stopped, so no sync mistakes our close for a dead launcher
  }

  /** The VMI `namespace/name` if it runs on this node, with its launcher's pod dir. */
  lookup(namespace: string, name: string): { vmi: VirtualMachineInstance; podDir: string } | undefined {
    const vmi = this.vmis.get(`${namespace}/${name}`) as VirtualMachineInstance | undefined;
    const podUID = vmi && vmi.status?.nodeName === this.opts.node ? podUIDOnNode(vmi, this.opts.node) : undefined;
    return vmi && podUID ? { vmi, podDir: podDirOf(this.opts.dataDir, this.opts.node, podUID) } : undefined;
  }

  /** The VMIs on this node. */
  list(): VirtualMachineInstance[] {
    return (this.vmis.list() as VirtualMachineInstance[]).filter((v) => v.status?.nodeName === this.opts.node);
  }

  enqueue(key: string): void {
    this.controller.enqueue(key);
  }

  async execute(key: string): Promise<void> {
    const [namespace, name] = key.split('/');
    const found = this.lookup(namespace, name);
    if (!found) return;
    const { vmi, podDir } = found;
    if (this.ownWrites.isStale(key, vmi.metadata.resourceVersion)) return; // our last write's event enqueues us again
    if (isFinal(vmi.status?.phase)) {
      this.readiness.forget(podUIDOnNode(vmi, this.opts.node) ?? '');
      this.connections.release(podDir);
      forgetGuestInfo(podDir);
      this.credentials.forget(podDir);
      return;
    }
    const seen = await observeLauncher(this.connections, podDir, key, vmi, () => this.controller.enqueue(key), (v) => resolveLauncherInputs(v, this.inputReader));
    if (seen.waiting) return this.controller.enqueueAfter(key, LAUNCHER_POLL_MS);
    if (seen.shutdownStarted) void this.opts.recorder.record(vmi as KubernetesObject, EventTypeNormal, Reason.ShuttingDown, 'Signaled Graceful Shutdown');
    const agentConnected = seen.domain?.state === 'running' && isAgentConnected(seen);
    const accessCredentials = this.credentials.observe(vmi, podDir, key, agentConnected);
    let status = computeDomainStatus(vmi, { ...seen, accessCredentials, node: this.opts.node, now: new Date() });
    if (status.phase === Phase.Running && hasHotplugWork(vmi)) {
      const attached = await this.syncHotplug(podDir, key, vmi);
      if (attached) {
        const volumeStatus = withAttachedDisks(status.volumeStatus, vmi, attached);
        if (volumeStatus) status.volumeStatus = volumeStatus;
        else delete status.volumeStatus;
      }
    }
    if (status.phase === Phase.Running) {
      status = await this.syncCPUs(podDir, key, vmi, status);
      if (vmi.spec.domain.memory?.maxGuest) status = await this.syncMemory(podDir, key, vmi, status);
      const volumeStatus = withVolumeTargets(status.volumeStatus, vmi);
      if (volumeStatus) status.volumeStatus = volumeStatus;
    }
    status = this.withReady(vmi, status);
    if (!isDeepStrictEqual(vmi.status ?? {}, status)) {
      const written = await this.opts.clients.vmis.replaceStatus(namespace, name, { ...vmi, status } as KubernetesObject) as VirtualMachineInstance;
      this.ownWrites.wrote(key, vmi.metadata.resourceVersion, written?.metadata?.resourceVersion);
      this.recordTransition(vmi, status.phase, status.reason);
    }
    await this.syncReadiness(vmi, status);
    if (status.phase === Phase.Running || status.phase === Phase.Scheduled) this.controller.enqueueAfter(key, RESYNC_MS);
  }

  /**
   * Ready, while the VMI is Running and in the write that ends Running (handlerOwnsReady): with the
   * Running write itself, so virt-controller needs no write of its own to follow the guest.
   */
  private withReady(vmi: VirtualMachineInstance, status: VirtualMachineInstanceStatus): VirtualMachineInstanceStatus {
    if (!handlerOwnsReady(vmi.status?.phase, status.phase)) return status;
    const pod = this.pods.byUID(podUIDOnNode(vmi, this.opts.node));
    // not in our cache (yet): its watch event syncs the VMI again; a Pod that is gone fails the VMI (virt-controller)
    if (!pod) return status;
    const conditions = setCondition(status.conditions, computeVMIReady(status.phase, pod, status.conditions), new Date());
    return conditions === status.conditions ? status : { ...status, conditions };
  }

  /** the launcher Pod's readiness gate follows the guest: Running and not paused */
  private async syncReadiness(vmi: VirtualMachineInstance, status: ReturnType<typeof computeDomainStatus>): Promise<void> {
    const paused = status.conditions?.some((c: { type: string; status: string }) => c.type === 'Paused' && c.status === 'True');
    await this.readiness.sync(vmi, podUIDOnNode(vmi, this.opts.node) ?? '', status.phase === Phase.Running && !paused).catch((err: unknown) => {
      this.log.warn({ vmi: `${vmi.metadata.namespace}/${vmi.metadata.name}`, err: (err as Error).message }, 'launcher Pod readiness not updated');
    });
  }

  /** Hands the launcher the hot-plugged disks attached on this node; undefined when it could not answer. */
  private async syncHotplug(podDir: string, key: string, vmi: VirtualMachineInstance): Promise<{ name: string; target: string }[] | undefined> {
    try {
      return await this.connections.get(podDir, key).client.request('hotplug', { disks: wantedHotplugDisks(vmi, this.opts.dataDir, this.opts.node) });
    } catch (err) {
      this.log.warn({ vmi: key, err: (err as Error).message }, 'hotplug sync failed');
      void this.opts.recorder.record(vmi as unknown as KubernetesObject, EventTypeWarning, 'HotplugFailed', (err as Error).message);
      return undefined;
    }
  }

  /** CPU hotplug: the launcher adds sockets until the guest has the VMI's spec.domain.cpu.sockets. */
  private async syncCPUs(podDir: string, key: string, vmi: VirtualMachineInstance, status: VirtualMachineInstanceStatus): Promise<VirtualMachineInstanceStatus> {
    const sockets = wantedSockets(vmi);
    if (sockets === undefined) return status;
    try {
      const now = await this.connections.get(podDir, key).client.request('setCPUs', { sockets });
      this.log.info({ vmi: key, sockets: now.sockets, vcpus: now.vcpus }, 'CPU hotplug done');
      return withCPUResult(status, vmi, { sockets: now.sockets }, new Date());
    } catch (err) {
      const message = (err as Error).message;
      if (!vmi.status?.conditions?.some((c) => c.type === 'HotVCPUChange' && c.message === message)) {
        void this.opts.recorder.record(vmi as unknown as KubernetesObject, EventTypeWarning, 'HotVCPUChangeFailed', message);
      }
      return withCPUResult(status, vmi, { error: message }, new Date());
    }
  }

  /** Memory hotplug: after the migration into a Pod sized for it, the launcher asks the guest for spec.domain.memory.guest. */
  private async syncMemory(podDir: string, key: string, vmi: VirtualMachineInstance, status: VirtualMachineInstanceStatus): Promise<VirtualMachineInstanceStatus> {
    const client = this.connections.get(podDir, key).client;
    const guestBytes = wantedGuestBytes(vmi);
    if (guestBytes === undefined) {
      const now = await client.request('memory').catch(() => undefined);
      return now ? withGuestCurrent(status, now.currentBytes) : status;
    }
    try {
      const now = await client.request('setMemory', { guestBytes });
      this.log.info({ vmi: key, guestBytes, currentBytes: now.currentBytes }, 'memory hotplug requested');
      return withMemoryResult(status, vmi, { currentBytes: now.currentBytes }, new Date());
    } catch (err) {
      const message = (err as Error).message;
      if (!isLauncherRefusal(err)) {
        // the launcher did not answer (a connection the migration just handed over): try again next sync
        this.log.info({ vmi: key, err: message }, 'memory hotplug: launcher not reachable yet');
        this.controller.enqueueAfter(key, MEMORY_RETRY_MS);
        return status;
      }
      this.log.warn({ vmi: key, err: message }, 'memory hotplug failed');
      void this.opts.recorder.record(vmi as unknown as KubernetesObject, EventTypeWarning, MEMORY_HOTPLUG_FAILED_REASON, message);
      return withMemoryResult(status, vmi, { error: message }, new Date());
    }
  }

  private recordTransition(vmi: VirtualMachineInstance, phase?: string, reason?: string): void {
    if (phase === vmi.status?.phase) return;
    this.log.info({ namespace: vmi.metadata.namespace, name: vmi.metadata.name, uid: vmi.metadata.uid, from: vmi.status?.phase, to: phase, reason }, 'VMI phase changed');
    const rec = this.opts.recorder;
    if (phase === Phase.Running) void rec.record(vmi as KubernetesObject, EventTypeNormal, Reason.Started, 'VirtualMachineInstance started.');
    else if (phase === Phase.Succeeded) void rec.record(vmi as KubernetesObject, EventTypeNormal, Reason.Stopped, 'The VirtualMachineInstance was shut down.');
    else if (phase === Phase.Failed) void rec.record(vmi as KubernetesObject, EventTypeWarning, Reason.Stopped, `The VirtualMachineInstance crashed${reason ? `: ${reason}` : ''}.`);
  }
}
