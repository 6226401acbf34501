import { rmSync, writeFileSync } from 'node:fs';
import { OwnWrites } from '../kube/own-writes';
import { join } from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { log } from '../log';
import { isConflict, isNotFound } from '../kube/api-errors';
import { mergePatch, toDeleteBody, type KubeClients } from '../kube/clients';
import { keyOf, splitKey } from '../kube/resources';
import { EventRecorder, EventTypeNormal, EventTypeWarning } from '../kube/events';
import { formatKubeTime } from '../kube/time';
import { executableProblem, resolveContainerLaunch, type LaunchContext } from './pod-command';
import { isProjectImage, refuseImage } from './image-policy';
import { prepareContainerConfig } from './container-config';
import type { ServiceEnvSource } from './service-env-cache';
import { VolumeSourceError } from './pod-volume-files';
import { CONTAINER_ROOT_ENV, linkMountsUnder, MountPlanError, planBindMounts, wrapInMountNamespace } from './container-mounts';
import { HOST_IP, POD_IP } from './pod-command';
import { describeLostExit, isContainerRunning, startContainer } from './pod-process';
import { reattachContainerLog, rotateContainerLog } from './container-log-pipe';
import { fifoPoolFor } from './fifo-pool';
import { listPodDirs, podsDirOf, readPodState, TERMINATION_FILE, writePodState, type ContainerExit, type PodRuntime } from './pod-runtime';
import { computePodStatus, isPodStatusChanged } from './pod-status';
import { signalProcessGroup } from './proc-stat';
import type { PodNetwork } from './network/pod-network';
import type { PodIsolation } from './cgroups/pod-isolation';
import { mountPodVolumes } from './pod-volumes';
import { LABEL_HOSTNAME } from './node-object';
import { clusterDnsNamespace } from './network/pod-resolv-conf';
import { ImagePulls } from './image-pulls';
import type { CpuManager } from './cpu-manager/cpu-manager';
import { setCpuAffinity, withCpuAffinity } from './cpu-manager/cpu-affinity';
import { formatCpuList } from '../../lib/kubevirt/cpu-list';
import { isStillJoining, processGroupMembers } from './cgroups/pod-isolation';
import { EVICTED_REASON } from './eviction/rank';

const DEFAULT_GRACE_SECONDS = 30;
/** how soon to look again at a container whose wrapper has not exec'd its command yet */
const JOIN_POLL_MS = 5;
export const EVENT_STARTED = 'Started';
export const EVENT_KILLING = 'Killing';
export const EVENT_FAILED = 'Failed';
export const EVENT_FAILED_MOUNT = 'FailedMount';
export const EVENT_NO_MOUNT_NAMESPACE = 'NoMountNamespace';
export const EVENT_EVICTED = EVICTED_REASON;

export interface PodManagerOptions {
  clients: KubeClients;
  nodeName: string;
  nodeDir: string;
  launch: Omit<LaunchContext, 'podDir'>;
  /** Ask for `key` to be synced again (now or after ms). */
  requeue: (key: string, afterMs?: number) => void;
  restartBackoffBaseMs?: number;
  restartBackoffMaxMs?: number;
  /** run any container command as a host process (kubelet tests only; see image-policy.ts) */
  allowHostCommands?: boolean;
  /** The node's pod network; without it pods share the host's network (127.0.0.1). */
  podNetwork?: PodNetwork;
  /** Per-Pod cgroups (limits, OOM reason); undefined where the host offers none. */
  isolation?: PodIsolation;
  /** The static CPU manager (exclusive CPUs for Guaranteed Pods); undefined: every Pod may run anywhere. */
  cpuManager?: CpuManager;
  /** The node's image store: launcher Pods' containerDisks are pulled into it before they start. */
  imagesDir?: string;
  /** bind-mount volumes in a mount namespace (needs root; default: whether we are root), else links + KV_CONTAINER_ROOT */
  canMount?: boolean;
  /** First image pull back-off (ms), doubling to 5 min; default 10 s as a kubelet's. */
  imagePullBackoffBaseMs?: number;
  /** the kubelet's Service cache for the service env; without it (or until synced) they are read from the API server */
  serviceEnv?: ServiceEnvSource;
}

/**
 * Runs the pods bound to this node as host processes: one `syncPod(key, pod)` per change makes the
 * world match the pod (start, restart per policy, SIGTERM → grace → SIGKILL on deletion, final
 * delete, status report). Pod records survive a kubelet restart through `<pod dir>/state.json`.
 */
export class PodManager {
  readonly runtimes = new Map<string, PodRuntime>();
  private readonly log;
  private readonly events: EventRecorder;
  private readonly imagePulls?: ImagePulls;
  private readonly canMount: boolean;
  /** the Pod versions our status writes replaced (by Pod uid): no status write from a cache that has not seen ours yet */
  private readonly ownWrites = new OwnWrites();

  constructor(private readonly opts: PodManagerOptions) {
    this.log = log.child({ component: 'kubelet', node: opts.nodeName });
    this.events = new EventRecorder(opts.clients.core, { component: 'kubelet', host: opts.nodeName });
    this.canMount = opts.canMount ?? process.getuid?.() === 0;
    if (opts.imagesDir) this.imagePulls = new ImagePulls({ imagesDir: opts.imagesDir, core: opts.clients.core, events: this.events, backoffBaseMs: opts.imagePullBackoffBaseMs });
  }

  /** Re-adopt what a previous kubelet left running (pid + start time must still match). */
  adoptFromDisk(): void {
    for (const [uid, dir] of listPodDirs(this.opts.nodeDir)) {
      const state = readPodState(dir);
      const rt: PodRuntime = state ? { ...state, dir } : { uid, key: '', container: '', restartCount: 0, dir };
      if (rt.pid && !rt.exit && !isContainerRunning(rt)) rt.exit = describeLostExit(rt);
      else if (rt.pid && !rt.exit) reattachContainerLog(dir, rt.container);
      this.runtimes.set(uid, rt);
      this.log.info({ pod: rt.key, uid, pid: rt.pid, running: isContainerRunning(rt) }, 'pod adopted from disk');
    }
    const removed = this.opts.podNetwork?.cleanupStale(new Set(this.runtimes.keys())) ?? [];
    if (removed.length) this.log.info({ netns: removed }, 'stale pod network namespaces removed');
    this.opts.isolation?.removeStale(new Set(this.runtimes.keys()));
    this.opts.cpuManager?.removeStale(new Set(this.runtimes.keys()));
    void fifoPoolFor(podsDirOf(this.opts.nodeDir)).refill(); // the first Pods' log FIFOs are ready before they start
  }

  /** Keys whose pods the API may have forgotten: sync them once the cache is full. */
  adoptedKeys(): string[] {
    return [...this.runtimes.values()].map((r) => r.key || `orphan/${r.uid}`);
  }

  async syncPod(key: string, pod: V1Pod | undefined): Promise<void> {
    this.removeReplaced(key, pod?.metadata?.uid);
    if (!pod || pod.spec?.nodeName !== this.opts.nodeName) return;
    const rt = this.runtimes.get(pod.metadata!.uid!);
    if (pod.metadata?.deletionTimestamp) return this.terminate(pod, rt);
    const phase = pod.status?.phase;
    if (!rt && (phase === 'Succeeded' || phase === 'Failed')) return; // finished before we knew it
    const current = rt ?? this.addRuntime(key, pod);
    if (!current.pid && !current.exit && !(await this.volumesReady(pod, current))) return this.reportStatus(pod, current);
    if (!current.pid && !current.exit && !this.imagesReady(pod, current)) {
      // images already on the node: checked within this sync, so no status is written for it (ImagePulls.settledAtOnce)
      await this.imagePulls?.settledAtOnce(current.uid);
      if (!this.imagesReady(pod, current)) return this.reportStatus(pod, current);
    }
    // once per start attempt, and not for an image this node refuses (no token minted for nothing)
    const willStart = !current.pid && !current.exit && !current.config && !refuseImage(pod.spec!.containers[0], this.opts.allowHostCommands);
    if (willStart && !(await this.configReady(pod, current))) return this.reportStatus(pod, current);
    if (current.evicted && !current.exit) {
      // killed: its status once its exit is recorded (and killed again if a kubelet restart came between the record and the kill)
      if (isContainerRunning(current)) signalProcessGroup(current.pid!, 'SIGKILL');
      return this.opts.requeue(current.key, 100);
    }
    if (isContainerRunning(current)) await this.refreshConfig(pod, current);
    this.ensureRunning(pod, current);
    await this.reportStatus(pod, current);
  }

  /** Before the first start: every claim bound and linked into the pod dir, else wait (and say why once). */
  private async volumesReady(pod: V1Pod, rt: PodRuntime): Promise<boolean> {
    const node = { metadata: { name: this.opts.nodeName, labels: { [LABEL_HOSTNAME]: this.opts.nodeName } } };
    const result = await mountPodVolumes(this.opts.clients.core, pod, rt.dir, node);
    if (result.ready) return true;
    if (rt.volumeWait !== result.message) {
      rt.volumeWait = result.message;
      void this.events.record(pod, EventTypeWarning, EVENT_FAILED_MOUNT, result.message);
    }
    this.opts.requeue(rt.key, 1000);
    return false;
  }

  /** Before the first start: the env's ConfigMaps/Secrets/Services read, the file volumes written (else FailedMount). */
  private async configReady(pod: V1Pod, rt: PodRuntime): Promise<boolean> {
    try {
      rt.config = await prepareContainerConfig(this.opts.clients.core, pod, rt.dir, { podIP: rt.podIP ?? POD_IP, hostIP: HOST_IP, ownNetwork: !pod.spec?.hostNetwork && !!this.opts.podNetwork }, this.opts.serviceEnv);
      this.scheduleRefresh(rt);
      return true;
    } catch (err) {
      if (!(err instanceof VolumeSourceError)) throw err;
      const message = `MountVolume.SetUp failed: ${err.message}`;
      if (rt.volumeWait !== message) {
        rt.volumeWait = message;
        void this.events.record(pod, EventTypeWarning, EVENT_FAILED_MOUNT, message);
      }
      this.opts.requeue(rt.key, 2000);
      return false;
    }
  }

  /** A running Pod's projected tokens are rewritten once 80% of their lifetime has passed (kube's rule). */
  private async refreshConfig(pod: V1Pod, rt: PodRuntime): Promise<void> {
    const at = rt.config?.tokenRefreshAt;
    if (rt.config && (at === undefined || at > Date.now())) return;
    if (!rt.config && !pod.spec?.volumes?.some((v) => v.projected)) return;
    try {
      rt.config = await prepareContainerConfig(this.opts.clients.core, pod, rt.dir, { podIP: rt.podIP ?? POD_IP, hostIP: HOST_IP, ownNetwork: !pod.spec?.hostNetwork && !!this.opts.podNetwork }, this.opts.serviceEnv);
      this.log.info({ pod: rt.key, uid: rt.uid }, 'pod volumes refreshed');
    } catch (err) {
      this.log.warn({ pod: rt.key, uid: rt.uid, err: (err as Error).message }, 'pod volume refresh failed; retrying');
      if (rt.config) rt.config.tokenRefreshAt = Date.now() + 10_000;
    }
    this.scheduleRefresh(rt);
  }

  private scheduleRefresh(rt: PodRuntime): void {
    const at = rt.config?.tokenRefreshAt;
    if (at !== undefined) this.opts.requeue(rt.key, Math.max(100, at - Date.now()));
  }

  /** Before the first start: the Pod's containerDisk images are in the node's store (image-pulls.ts). */
  private imagesReady(pod: V1Pod, rt: PodRuntime): boolean {
    const r = this.imagePulls?.check(pod, rt.uid, (ms) => this.opts.requeue(rt.key, ms)) ?? { ready: true as const };
    rt.pullWait = r.ready ? undefined : r.wait;
    return r.ready;
  }

  /** Kill what runs for `key` under another UID: the pod was deleted (or deleted and re-created). */
  private removeReplaced(key: string, uid: string | undefined): void {
    for (const rt of [...this.runtimes.values()]) {
      const sameKey = rt.key === key || `orphan/${rt.uid}` === key;
      if (sameKey && rt.uid !== uid) this.killAndRemove(rt, 'pod no longer exists');
    }
  }

  private addRuntime(key: string, pod: V1Pod): PodRuntime {
    const uid = pod.metadata!.uid!;
    const rt: PodRuntime = { uid, key, container: pod.spec?.containers?.[0]?.name ?? 'container', restartCount: 0, dir: join(podsDirOf(this.opts.nodeDir), uid), acknowledgedAt: formatKubeTime() };
    this.runtimes.set(uid, rt);
    return rt;
  }

  /** Mark adopted processes that died since the last poll (ours report through their exit event). */
  pollAdopted(): void {
    for (const rt of this.runtimes.values()) {
      if (rt.child || !rt.pid || rt.exit || isContainerRunning(rt)) continue;
      this.onExit(rt, describeLostExit(rt));
    }
  }

  /** The Pods whose containers run now, with the processes they hold (the eviction manager's candidates). */
  runningPods(): { uid: string; key: string; dir: string; pids: number[] }[] {
    return [...this.runtimes.values()]
      .filter((rt) => rt.key && !rt.terminating && !rt.evicted && isContainerRunning(rt))
      .map((rt) => ({ uid: rt.uid, key: rt.key, dir: rt.dir, pids: this.podPids(rt) }));
  }

  private podPids(rt: PodRuntime): number[] {
    const inGroup = rt.pid ? processGroupMembers(rt.pid) : [];
    let inCgroup: number[] = [];
    try {
      inCgroup = this.opts.isolation?.cgroups.pids(rt.uid) ?? [];
    } catch {
      // no cgroup for this Pod
    }
    return [...new Set([...inGroup, ...inCgroup])];
  }

  /**
   * Evict a running Pod as kube's eviction manager does under a hard threshold: an `Evicted` event,
   * every process of the Pod killed at once (grace 0), then the Pod ends Failed with reason Evicted,
   * `message`, and a DisruptionTarget condition; it is never restarted. False if it no longer runs.
   */
  evict(pod: V1Pod, message: string): boolean {
    const rt = this.runtimes.get(pod.metadata?.uid ?? '');
    if (!rt || rt.evicted || !isContainerRunning(rt)) return false;
    rt.evicted = { message, at: formatKubeTime() };
    try {
      writePodState(rt);
    } catch {
      // the pod dir is gone; the kill below still happens
    }
    void this.events.record(pod, EventTypeWarning, EVENT_EVICTED, message);
    const pids = this.podPids(rt);
    signalProcessGroup(rt.pid!, 'SIGKILL');
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    try {
      // after the kill, so nothing of the Pod writes it again: virt-handler reads why the launcher ended from here
      writeFileSync(join(rt.dir, TERMINATION_FILE), JSON.stringify({ reason: EVICTED_REASON, message }));
    } catch {
      // the pod dir is gone
    }
    this.log.warn({ pod: rt.key, uid: rt.uid, message }, 'pod evicted');
    this.opts.requeue(rt.key);
    return true;
  }

  /** `kv up` shutdown: SIGTERM every pod's process group, SIGKILL what is left after `graceMs`. */
  async stopAll(graceMs: number): Promise<void> {
    const running = [...this.runtimes.values()].filter(isContainerRunning);
    running.forEach((rt) => signalProcessGroup(rt.pid!, 'SIGTERM'));
    const deadline = Date.now() + graceMs;
    while (running.some(isContainerRunning) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    running.filter(isContainerRunning).forEach((rt) => signalProcessGroup(rt.pid!, 'SIGKILL'));
    for (const rt of this.runtimes.values()) this.opts.podNetwork?.detach(rt.uid);
  }

  /** After stopAll: the node's cgroups go too (a later start makes them again). */
  async releaseCgroups(): Promise<void> {
    await this.opts.isolation?.releaseAll();
  }

  private ensureRunning(pod: V1Pod, rt: PodRuntime): void {
    if (isContainerRunning(rt) || rt.evicted) return;
    if (!rt.exit) {
      if (!rt.pid) this.start(pod, rt);
      return;
    }
    const policy = pod.spec?.restartPolicy ?? 'Always';
    if (policy === 'Never' || (policy === 'OnFailure' && rt.exit.exitCode === 0)) return;
    const wait = (rt.restartAt ?? 0) - Date.now();
    if (wait > 0) return this.opts.requeue(rt.key, wait);
    rt.lastExit = rt.exit;
    rt.restartCount++;
    try {
      rotateContainerLog(rt.dir, rt.container);
    } catch (err) {
      this.log.warn({ pod: rt.key, err: err instanceof Error ? err.message : String(err) }, 'could not keep the previous run\'s log');
    }
    this.start(pod, rt);
  }

  private start(pod: V1Pod, rt: PodRuntime): void {
    const container = pod.spec!.containers[0];
    const refusal = refuseImage(container, this.opts.allowHostCommands);
    if (refusal) {
      if (!rt.refused) void this.events.record(pod, EventTypeWarning, EVENT_FAILED, refusal.message);
      rt.refused = refusal;
      this.log.warn({ pod: rt.key, uid: rt.uid, image: container.image }, 'image not runnable; not started');
      return;
    }
    // hostNetwork Pods share the node's network, as in Kubernetes
    const net = pod.spec?.hostNetwork ? undefined : this.opts.podNetwork;
    if (net) {
      try {
        const a = net.attach(rt.uid, clusterDnsNamespace(pod));
        rt.podIP = a.ip;
        rt.netns = a.netns;
      } catch (err) {
        const message = `failed to set up the pod network: ${err instanceof Error ? err.message : String(err)}`;
        void this.events.record(pod, EventTypeWarning, EVENT_FAILED, message);
        return this.onExit(rt, { exitCode: 128, reason: 'StartError', message, finishedAt: formatKubeTime() });
      }
    }
    const asContainer = isProjectImage(container.image);
    const launch = resolveContainerLaunch(pod, container, { ...this.opts.launch, podDir: rt.dir, podIP: rt.podIP, sources: rt.config?.sources, asContainer });
    if ('error' in launch && launch.reason) {
      // CreateContainerConfigError: waits (and retries) until the ConfigMap or Secret is there
      if (rt.refused?.message !== launch.error) void this.events.record(pod, EventTypeWarning, EVENT_FAILED, `Error: ${launch.error}`);
      rt.refused = { reason: launch.reason, message: launch.error };
      rt.config = undefined;
      return this.opts.requeue(rt.key, 2000);
    }
    rt.refused = undefined;
    if ('error' in launch) {
      void this.events.record(pod, EventTypeWarning, EVENT_FAILED, launch.error);
      return this.onExit(rt, { exitCode: 128, reason: 'StartError', message: launch.error, finishedAt: formatKubeTime() });
    }
    const missing = executableProblem(launch.file, launch.env, launch.cwd, !(asContainer && container.volumeMounts?.length));
    if (missing) {
      void this.events.record(pod, EventTypeWarning, EVENT_FAILED, missing);
      return this.onExit(rt, { exitCode: 128, reason: 'StartError', message: missing, finishedAt: formatKubeTime() });
    }
    if (asContainer && container.volumeMounts?.length) {
      try {
        const mounts = planBindMounts(container, rt.config?.volumePaths ?? new Map(), launch.env);
        if (this.canMount) Object.assign(launch, wrapInMountNamespace(mounts, launch.file, launch.args));
        else {
          const root = join(rt.dir, 'root');
          linkMountsUnder(root, mounts);
          launch.env[CONTAINER_ROOT_ENV] = root;
          void this.events.record(pod, EventTypeWarning, EVENT_NO_MOUNT_NAMESPACE, `the kubelet is not root: volumes are not mounted at their mountPath; the container finds them under $${CONTAINER_ROOT_ENV} (${root}), readOnly not enforced`);
        }
      } catch (err) {
        if (!(err instanceof MountPlanError)) throw err;
        void this.events.record(pod, EventTypeWarning, EVENT_FAILED, err.message);
        return this.onExit(rt, { exitCode: 128, reason: 'StartError', message: err.message, finishedAt: formatKubeTime() });
      }
    }
    if (net && rt.netns) Object.assign(launch, net.wrap(rt.netns, launch.file, launch.args));
    try {
      rt.oomKillsAtStart = this.opts.isolation?.prepare(pod);
    } catch (err) {
      const message = `cannot create the pod's cgroup: ${(err as Error).message}`;
      void this.events.record(pod, EventTypeWarning, EVENT_FAILED, message);
      return this.onExit(rt, { exitCode: 128, reason: 'StartError', message, finishedAt: formatKubeTime() });
    }
    const cpus = this.opts.cpuManager?.assign(pod);
    if (cpus && 'error' in cpus) {
      // kubelet's admission refuses such a Pod (UnexpectedAdmissionError); ours fails its start with the same words
      void this.events.record(pod, EventTypeWarning, EVENT_FAILED, cpus.error);
      return this.onExit(rt, { exitCode: 128, reason: 'StartError', message: cpus.error, finishedAt: formatKubeTime() });
    }
    if (cpus) Object.assign(launch, withCpuAffinity(cpus.cpus, launch.file, launch.args));
    // outermost: the wrappers above (namespaces, taskset) already run inside the Pod's cgroup
    if (this.opts.isolation) Object.assign(launch, this.opts.isolation.joiningCommand(rt.uid, launch.file, launch.args));
    startContainer(rt, launch, (exit) => this.onExit(rt, exit));
    rt.joining = Boolean(this.opts.isolation);
    if (cpus?.cpus.length && rt.pid && !rt.exit) this.opts.isolation?.placeCpus(rt.uid, rt.pid, formatCpuList(cpus.cpus));
    if (cpus?.exclusive) this.repinShared(rt.uid);
    void this.events.record(pod, EventTypeNormal, EVENT_STARTED, `Started container ${rt.container}`);
    this.log.info({ pod: rt.key, uid: rt.uid, pid: rt.pid, command: launch.file }, 'container started');
  }

  /** CPUs just became exclusive: every other running Pod without CPUs of its own moves to the smaller shared pool. */
  private repinShared(except: string): void {
    const cpuManager = this.opts.cpuManager;
    if (!cpuManager) return;
    const pool = cpuManager.sharedPool();
    for (const other of this.runtimes.values()) {
      if (other.uid === except || !other.pid || !isContainerRunning(other)) continue;
      if (cpuManager.holds(other.uid)) continue;
      setCpuAffinity(processGroupMembers(other.pid), pool);
      this.opts.isolation?.placeCpus(other.uid, other.pid, formatCpuList(pool));
    }
  }

  private onExit(rt: PodRuntime, exit: ContainerExit): void {
    exit = this.opts.isolation?.classifyExit(rt.uid, exit, rt.oomKillsAtStart) ?? exit;
    rt.exit = exit;
    rt.child = undefined;
    const base = this.opts.restartBackoffBaseMs ?? 1000;
    rt.restartAt = Date.now() + Math.min(this.opts.restartBackoffMaxMs ?? 60_000, base * 2 ** rt.restartCount);
    try {
      writePodState(rt);
    } catch {
      // the pod dir is gone (pod removed); nothing to record
    }
    this.log.info({ pod: rt.key, uid: rt.uid, exitCode: exit.exitCode, reason: exit.reason }, 'container exited');
    if (rt.key) this.opts.requeue(rt.key);
  }

  /** The container's wrapper has not joined its cgroup and exec'd the command yet (see isStillJoining). */
  private stillJoining(rt: PodRuntime): boolean {
    if (!rt.joining) return false;
    if (rt.pid && !rt.exit && isStillJoining(rt.pid)) return true;
    rt.joining = false;
    return false;
  }

  private async terminate(pod: V1Pod, rt: PodRuntime | undefined): Promise<void> {
    if (rt && isContainerRunning(rt)) {
      if (!rt.terminating && this.stillJoining(rt)) return this.opts.requeue(rt.key, JOIN_POLL_MS);
      const grace = (pod.metadata?.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS) * 1000;
      if (!rt.terminating) {
        rt.terminating = { since: Date.now(), graceMs: grace, killed: false };
        signalProcessGroup(rt.pid!, grace > 0 ? 'SIGTERM' : 'SIGKILL');
        this.log.info({ pod: rt.key, uid: rt.uid, graceMs: grace }, 'stopping container');
        void this.events.record(pod, EventTypeNormal, EVENT_KILLING, `Stopping container ${rt.container}`);
      }
      const t = rt.terminating;
      t.graceMs = Math.min(t.graceMs, grace); // a second delete may shorten the grace period
      const left = t.since + t.graceMs - Date.now();
      if (left > 0) return this.opts.requeue(rt.key, left + 10);
      if (!t.killed) {
        t.killed = true;
        signalProcessGroup(rt.pid!, 'SIGKILL');
      }
      return this.opts.requeue(rt.key, 100); // wait for the exit
    }
    await this.deletePod(pod);
    if (rt) this.killAndRemove(rt, 'pod deleted');
  }

  private async deletePod(pod: V1Pod): Promise<void> {
    const { namespace, name } = splitKey(keyOf(pod));
    try {
      await this.opts.clients.core.deleteNamespacedPod({ namespace: namespace!, name, gracePeriodSeconds: 0, body: toDeleteBody({ gracePeriodSeconds: 0, uid: pod.metadata?.uid }) });
    } catch (err) {
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }

  private killAndRemove(rt: PodRuntime, why: string): void {
    if (isContainerRunning(rt)) signalProcessGroup(rt.pid!, 'SIGKILL');
    rt.child?.removeAllListeners('exit');
    this.runtimes.delete(rt.uid);
    this.imagePulls?.forget(rt.uid);
    this.ownWrites.forget(rt.uid);
    this.opts.podNetwork?.detach(rt.uid);
    rmSync(rt.dir, { recursive: true, force: true });
    this.opts.isolation?.release(rt.uid);
    this.opts.cpuManager?.release(rt.uid);
    this.log.info({ pod: rt.key, uid: rt.uid, why }, 'pod cleaned up');
  }

  private async reportStatus(pod: V1Pod, rt: PodRuntime): Promise<void> {
    // our last status write's event is on its way and syncs this pod again
    if (this.ownWrites.isStale(rt.uid, pod.metadata?.resourceVersion)) return;
    if (this.stillJoining(rt)) return this.opts.requeue(rt.key, JOIN_POLL_MS);
    const status = computePodStatus(pod, rt, isContainerRunning(rt));
    if (!isPodStatusChanged(pod, status)) return;
    const { namespace, name } = splitKey(keyOf(pod));
    try {
      const body = { metadata: { resourceVersion: pod.metadata?.resourceVersion }, status };
      const written = await this.opts.clients.core.patchNamespacedPodStatus({ namespace: namespace!, name, body }, mergePatch);
      this.ownWrites.wrote(rt.uid, pod.metadata?.resourceVersion, written?.metadata?.resourceVersion);
    } catch (err) {
      // 409: our cache is behind the server, so an update event is on its way and requeues this pod
      if (isNotFound(err) || isConflict(err)) return;
      throw err;
    }
  }
}
