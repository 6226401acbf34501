import { fileURLToPath } from 'node:url';
import type { KubeConfig, V1Pod } from '@kubernetes/client-node';
import { dataPaths } from '../data-dir';
import { log } from '../log';
import { Backoff, delay } from '../kube/backoff';
import { makeKubeClients } from '../kube/clients';
import { Controller } from '../kube/controller';
import { ServiceEnvCache } from './service-env-cache';
import { Informer } from '../kube/informer';
import { messageOf } from '../kube/api-errors';
import { collectionPath, PodResource } from '../kube/resources';
import { defaultHostProbeFile, detectAccel } from '../virt-launcher/kvm-probe';
import { readKvmProbe } from './kvm-probe-result';
import { hostCpus, readHugepages, readMachineFacts } from './machine-facts';
import { CpuManager } from './cpu-manager/cpu-manager';
import type { NodeFacts } from './node-object';
import { evaluatePressure, observationsOf, readPressureFigures, type PressureFigures } from './node-pressure';
import { DEFAULT_EVICTION_HARD, parseEvictionHard, type EvictionThreshold } from './eviction/thresholds';
import { EvictionManager } from './eviction/eviction-manager';
import { thresholdSource } from './eviction/threshold-source';
import { NodeStatusReporter } from './node-status';
import { PodManager } from './pod-manager';
import { PodNetwork } from './network/pod-network';
import { setUpPodIsolation } from './cgroups/set-up-isolation';
import { DelegatedAuth } from '../kube/delegated-auth';
import { startKubeletApi, type KubeletApi } from './kubelet-api/server';
import { findPortForwardTarget } from './kubelet-api/find-port-forward';
import { findContainerLog } from './kubelet-api/find-log';

export const KV_SCRIPT = fileURLToPath(new URL('../../bin/kv.mjs', import.meta.url));
const ADOPTED_POLL_MS = 1000;
const STOP_PODS_GRACE_MS = 10_000;

export interface KubeletOptions {
  kc: KubeConfig;
  nodeName: string;
  dataDir: string;
  nodesTotal?: number;
  /** On stop, terminate every pod's processes (`kv up` shutdown); otherwise pods keep running. */
  stopPodsOnExit?: boolean;
  leaseIntervalMs?: number;
  statusIntervalMs?: number;
  restartBackoffBaseMs?: number;
  /** run any Pod's command as a host process, not only launcher Pods (kubelet tests; never kv up) */
  allowHostCommands?: boolean;
  /** give every Pod its own network namespace and address (network/pod-network.ts); needs root */
  podNetwork?: boolean;
  /** why there is no pod network (reported in the Node's NetworkUnavailable condition) */
  noPodNetworkReason?: string;
  /** bind-mount project-image volumes in a mount namespace (default: when root); false: links under KV_CONTAINER_ROOT */
  canMount?: boolean;
  /** kubelet's --cpu-manager-policy: static (default where the host has 2 CPUs or more) or none */
  cpuManagerPolicy?: 'static' | 'none';
  /** Where MemoryPressure/DiskPressure figures come from (default: /proc/meminfo and the data dir's filesystem). */
  pressureFigures?: () => PressureFigures;
  /** kubelet's --eviction-hard (default memory.available<100Mi,nodefs.available<10%); read on every pass. */
  evictionHard?: EvictionThreshold[];
  /** How often the eviction manager observes the node (default 10 s, kubelet's housekeeping interval). */
  evictionIntervalMs?: number;
}

/**
 * The process-kubelet of one local node: registers the Node, heartbeats, and runs the Pods bound
 * to it as detached host processes (see pod-manager.ts). Informer callbacks only enqueue pod keys.
 */
export class Kubelet {
  readonly pods: Informer<V1Pod>;
  private readonly serviceEnv: ServiceEnvCache;
  readonly manager: PodManager;
  private readonly controller: Controller;
  private readonly status: NodeStatusReporter;
  readonly eviction: EvictionManager;
  private readonly log;
  readonly network: PodNetwork | undefined;
  private api?: KubeletApi;

  constructor(private readonly opts: KubeletOptions) {
    const clients = makeKubeClients(opts.kc);
    const nodeDir = dataPaths(opts.dataDir).node(opts.nodeName);
    const machine = readMachineFacts(opts.dataDir);
    this.network = opts.podNetwork ? new PodNetwork({ nodeName: opts.nodeName, nodeDir }) : undefined;
    const podCIDR = this.network?.podCidr;
    const cpus = hostCpus();
    const cpuManager = (opts.cpuManagerPolicy ?? 'static') === 'static' && CpuManager.enabledFor(cpus.length)
      ? new CpuManager({ nodeName: opts.nodeName, stateFile: dataPaths(opts.dataDir).cpuManagerState, cpus })
      : undefined;
    const figures = opts.pressureFigures ?? (() => readPressureFigures(opts.dataDir));
    const thresholds = thresholdSource(opts.evictionHard ?? parseEvictionHard(DEFAULT_EVICTION_HARD), nodeDir, log.child({ component: 'kubelet', node: opts.nodeName }));
    const facts = (): NodeFacts => ({
      name: opts.nodeName,
      nodesTotal: opts.nodesTotal ?? 1,
      machine,
      kvmUsable: readKvmProbe(opts.dataDir, opts.nodeName),
      pressure: evaluatePressure(figures(), thresholds()),
      podCIDR,
      noPodNetwork: podCIDR ? undefined : opts.noPodNetworkReason,
      kubeletPort: this.api?.port,
      hugepages: readHugepages(),
      cpuManager: cpuManager !== undefined,
    });
    this.log = log.child({ component: 'kubelet', node: opts.nodeName });
    this.status = new NodeStatusReporter({ clients, facts, leaseIntervalMs: opts.leaseIntervalMs, statusIntervalMs: opts.statusIntervalMs });
    this.pods = new Informer<V1Pod>({ kc: opts.kc, path: collectionPath(PodResource), fieldSelector: `spec.nodeName=${opts.nodeName}` });
    this.serviceEnv = new ServiceEnvCache(opts.kc);
    this.controller = new Controller({
      name: 'kubelet',
      informers: [this.pods],
      workers: 2,
      execute: (key) => this.manager.syncPod(key, this.pods.get(key)),
    });
    this.manager = new PodManager({
      clients,
      nodeName: opts.nodeName,
      nodeDir,
      launch: { nodeName: opts.nodeName, dataDir: opts.dataDir, kvScript: KV_SCRIPT, nodeExecutable: process.execPath, hostEnv: process.env },
      requeue: (key, ms) => (ms ? this.controller.enqueueAfter(key, ms) : this.controller.enqueue(key)),
      restartBackoffBaseMs: opts.restartBackoffBaseMs,
      imagesDir: dataPaths(opts.dataDir).images,
      allowHostCommands: opts.allowHostCommands,
      canMount: opts.canMount,
      podNetwork: this.network,
      cpuManager,
      serviceEnv: this.serviceEnv,
      isolation: setUpPodIsolation({ nodeName: opts.nodeName, dataDir: opts.dataDir, machine, nodesTotal: opts.nodesTotal ?? 1, log: this.log }),
    });
    this.pods.on(this.controller.enqueueHandlers());
    this.eviction = new EvictionManager({
      thresholds,
      observe: () => observationsOf(figures()),
      running: () => this.manager.runningPods(),
      podOf: (key) => this.pods.get(key),
      evict: (pod, message) => this.manager.evict(pod, message),
      reportPressure: () => this.status.updateStatus(),
      log: this.log,
      intervalMs: opts.evictionIntervalMs,
    });
  }

  async run(signal: AbortSignal): Promise<void> {
    this.network?.ensureNode();
    this.manager.adoptFromDisk();
    await this.probeAccelerator(); // before registering: a Ready node knows its accelerator and no launcher pays the probe
    await this.startApi();
    await this.registerNode(signal);
    const poller = setInterval(() => this.manager.pollAdopted(), ADOPTED_POLL_MS);
    const loops = [this.pods.run(signal), this.serviceEnv.run(signal), this.controller.run(signal), this.status.run(signal)];
    if (await this.pods.waitForSync(signal)) {
      for (const key of this.manager.adoptedKeys()) this.controller.enqueue(key); // cleans up pods deleted while we were away
      loops.push(this.eviction.run(signal)); // ranks only Pods the cache knows
    }
    await Promise.all(loops);
    clearInterval(poller);
    await this.api?.close();
    if (this.opts.stopPodsOnExit) {
      this.log.info('stopping all pods');
      await this.manager.stopAll(STOP_PODS_GRACE_MS);
      await this.manager.releaseCgroups();
      this.network?.teardown();
    }
  }

  /** The kubelet's API (container logs for `kubectl logs`, `kubectl port-forward`), published as the Node's kubeletEndpoint. */
  private async startApi(): Promise<void> {
    const auth = new DelegatedAuth(this.opts.kc);
    try {
      this.api = await startKubeletApi({
        nodeName: this.opts.nodeName,
        review: (token, attrs) => auth.review(token, attrs),
        findLog: (ns, pod, container, previous) => findContainerLog(this.pods.get(`${ns}/${pod}`), this.manager.runtimes.values(), ns, pod, container, previous),
        findPortForward: (ns, pod) => findPortForwardTarget(this.pods.get(`${ns}/${pod}`), this.manager.runtimes.values(), pod),
        log: this.log,
      });
      this.log.info({ port: this.api.port }, 'kubelet API listening');
    } catch (err) {
      this.log.warn({ err: messageOf(err) }, 'kubelet API not started: kubectl logs will not reach this node');
    }
  }

  /**
   * The KVM probe at kubelet start rather than in the first launcher (server/virt-launcher/kvm-probe.ts:
   * cached in the node dir and, for this boot, in the host's cache, so only a machine's first node waits).
   */
  private async probeAccelerator(): Promise<void> {
    try {
      const r = await detectAccel({ cacheDir: dataPaths(this.opts.dataDir).node(this.opts.nodeName), hostCacheFile: defaultHostProbeFile() });
      this.log.info({ accel: r.accel, reason: r.reason }, 'accelerator known');
    } catch (err) {
      this.log.warn({ err: messageOf(err) }, 'KVM probe failed; launchers will probe');
    }
  }

  private async registerNode(signal: AbortSignal): Promise<void> {
    const backoff = new Backoff(500, 10_000);
    while (!signal.aborted) {
      try {
        return await this.status.register();
      } catch (err) {
        this.log.warn({ err: messageOf(err) }, 'node registration failed; retrying');
        await delay(backoff.next(), signal);
      }
    }
  }
}
