/**
 * `kv controller`: runs virt-controller's controllers against the API server in the kubeconfig.
 * Adding a controller (VM, migration) is one entry in CONTROLLERS.
 */
import { parseArgs } from 'node:util';
import { dataPaths } from '../data-dir';
import { makeKubeClients, type KubeClients } from '../kube/clients';
import { ClusterConfig } from '../kube/cluster-config';
import { EventRecorder } from '../kube/events';
import { loadKubeConfig } from '../kube/kubeconfig';
import { log } from '../log';
import { stopSignal, type SharedRun } from '../shared-run';
import { startCpuProfile } from './cpu-profile';
import { localImageCheck } from './local-images';
import { EvacuationController } from './evacuation/evacuation-controller';
import { MigrationController } from './migration/migration-controller';
import { migrationSettingsFrom } from './migration/cluster-settings';
import { KubeVirtController } from './kubevirt/kubevirt-controller';
import { KUBEVIRT_TS_VERSION } from '../../lib/kubevirt/version';
import { overheadRatioOf } from '../../lib/kubevirt/kubevirt-cr';
import type { RenderOptions } from './vmi/render-launcher-pod';
import { VMIController } from './vmi/vmi-controller';
import { VMController } from './vm/vm-controller';
import { SnapshotController } from './snapshot/snapshot-controller';
import { CloneController } from './clone/clone-controller';
import { ReplicaSetController } from './replicaset/replicaset-controller';
import { PoolController } from './pool/pool-controller';
import { createControllerMetrics, type ControllerMetrics } from './metrics/controller-metrics';
import { serveMetrics } from './metrics/metrics-server';
import { NamespaceQuotaCaches } from './namespace-quota-caches';

const ctlLog = log.child({ component: 'virt-controller' });
const COMPONENT = 'virt-controller';

export interface ControllerContext {
  clients: KubeClients;
  recorder: EventRecorder;
  /** Embedded mode only: the cluster's data dir (image store, node runtime dirs). */
  dataDir?: string;
  launcherImage?: string;
  /** the KubeVirt CR's configuration, live */
  clusterConfig: ClusterConfig;
  /** KubeVirt's virt-controller metrics (work queues, VMI phase transitions, migrations) */
  metrics?: ControllerMetrics;
  /** ResourceQuota and Namespace caches the VMI and migration controllers share (startControllers makes one) */
  quotaCaches?: NamespaceQuotaCaches;
}

/** KubeVirt's default metrics port (TLS there; plain HTTP here, like virt-handler's /metrics) */
export const DEFAULT_METRICS_PORT = 8443;

interface Runnable { run(signal: AbortSignal): Promise<void> }

/** How both the VMI and the migration controller size launcher Pods: the KubeVirt CR's knobs, read per Pod */
function launcherRender(ctx: ControllerContext): RenderOptions {
  return {
    launcherImage: ctx.launcherImage,
    cpuAllocationRatio: () => ctx.clusterConfig.configuration().developerConfiguration?.cpuAllocationRatio,
    overheadRatio: () => overheadRatioOf(ctx.clusterConfig.configuration()),
    memoryOvercommit: () => ctx.clusterConfig.configuration().developerConfiguration?.memoryOvercommit,
  };
}

const CONTROLLERS: Record<string, (ctx: ControllerContext) => Runnable | Promise<Runnable>> = {
  vmi: (ctx) => {
    const c = new VMIController({
      clients: ctx.clients, recorder: ctx.recorder,
      imageExists: ctx.dataDir ? localImageCheck(dataPaths(ctx.dataDir).images) : undefined,
      render: launcherRender(ctx), metrics: ctx.metrics?.workQueues,
      vmStateStorageClass: () => ctx.clusterConfig.configuration().vmStateStorageClass, caches: ctx.quotaCaches,
    });
    const m = ctx.metrics;
    if (m) c.vmis.on({ update: (old, cur) => m.observeVMI(old, cur) });
    return c;
  },
  vm: (ctx) => new VMController({ clients: ctx.clients, recorder: ctx.recorder, metrics: ctx.metrics?.workQueues, configuration: () => ctx.clusterConfig.configuration() }),
  migration: (ctx) => {
    const c = new MigrationController({
      clients: ctx.clients, recorder: ctx.recorder, render: launcherRender(ctx),
      settings: () => migrationSettingsFrom(ctx.clusterConfig.configuration()), metrics: ctx.metrics?.workQueues, caches: ctx.quotaCaches,
    });
    ctx.metrics?.setMigrationSource(() => c.vmims.list());
    ctx.clusterConfig.onChange(() => c.resyncAll());
    return c;
  },
  evacuation: (ctx) => new EvacuationController({ clients: ctx.clients, recorder: ctx.recorder, limits: () => migrationSettingsFrom(ctx.clusterConfig.configuration()) }),
  kubevirt: (ctx) => new KubeVirtController({ custom: ctx.clients.custom, clusterConfig: ctx.clusterConfig, version: KUBEVIRT_TS_VERSION }),
  replicaset: (ctx) => new ReplicaSetController({ clients: ctx.clients, recorder: ctx.recorder }),
  pool: (ctx) => new PoolController({ clients: ctx.clients, recorder: ctx.recorder }),
  snapshot: (ctx) => new SnapshotController({ clients: ctx.clients, recorder: ctx.recorder, dataDir: ctx.dataDir }),
  clone: (ctx) => new CloneController({ clients: ctx.clients, recorder: ctx.recorder }),
  'cluster-config': (ctx) => ctx.clusterConfig,
};

/** Starts every controller; resolves when the signal aborts and all have stopped. */
export async function startControllers(context: ControllerContext, signal: AbortSignal): Promise<void> {
  const ctx = { ...context, quotaCaches: context.quotaCaches ?? new NamespaceQuotaCaches(context.clients.kc) };
  const runs = await Promise.all(Object.entries(CONTROLLERS).map(async ([name, make]) => {
    const c = await make(ctx);
    ctlLog.info({ controller: name }, 'starting controller');
    return c.run(signal);
  }));
  await Promise.all(runs);
}

export async function runControllerCommand(argv: string[], shared?: SharedRun): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      kubeconfig: { type: 'string' }, 'data-dir': { type: 'string' }, 'launcher-image': { type: 'string' },
      'metrics-port': { type: 'string', default: String(DEFAULT_METRICS_PORT) }, 'metrics-host': { type: 'string', default: '0.0.0.0' },
    },
  });
  const metricsPort = Number(values['metrics-port']);
  if (!Number.isInteger(metricsPort) || metricsPort < 0 || metricsPort > 65535) {
    process.stderr.write(`kv controller: --metrics-port must be a port number (0-65535), got "${values['metrics-port']}"\n`);
    process.exit(2);
  }
  const clients = makeKubeClients(loadKubeConfig(values.kubeconfig));
  const recorder = new EventRecorder(clients.core, { component: COMPONENT });
  const signal = stopSignal(shared, () => ctlLog.info('stopping'));
  const writeProfile = await startCpuProfile();
  const clusterConfig = new ClusterConfig(clients.kc);
  const metrics = createControllerMetrics();
  const endpoint = await serveMetrics(() => metrics.scrape(), metricsPort, values['metrics-host']!);
  ctlLog.info({ url: `${endpoint.url}/metrics` }, 'serving metrics');
  // one virt-controller, no leader election: it leads and is ready as soon as it runs
  metrics.setLeading(true);
  metrics.setReady(true);
  await startControllers({ clients, recorder, dataDir: values['data-dir'], launcherImage: values['launcher-image'], clusterConfig, metrics }, signal);
  await endpoint.close();
  await writeProfile();
  ctlLog.info('stopped');
}
