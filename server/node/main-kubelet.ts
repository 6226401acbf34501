import { log } from '../log';
import { ensureKvBundle } from '../bundle/ensure-bundle';
import { BUNDLE_ENV } from '../bundle/pin-bundle';
import { dataDirFromFlags, kubeConfigFromFlags, parseFlags } from './cli-flags';
import { finishRun, stopSignal, type SharedRun } from '../shared-run';
import { Kubelet } from './kubelet';
import { DEFAULT_EVICTION_HARD, EvictionThresholdError, parseEvictionHard, type EvictionThreshold } from './eviction/thresholds';
import { podNetworkUnavailableReason } from './network/pod-network';

/**
 * `kv node --name N [--data-dir DIR] [--kubeconfig FILE] [--nodes-total N] [--stop-pods-on-exit]
 * [--allow-host-commands] [--no-pod-network] [--eviction-hard memory.available<100Mi,nodefs.available<10%]` (--allow-host-commands for kubelet tests only: any Pod's
 * command runs on the host). The pod network is on unless --no-pod-network or KV_POD_NETWORK=0, or the
 * machine cannot run it (then pods share the host's network and the Node says why).
 */
export async function runNodeCommand(argv: string[], shared?: SharedRun): Promise<void> {
  const flags = parseFlags(argv, { name: { type: 'string' }, 'nodes-total': { type: 'string' }, 'stop-pods-on-exit': { type: 'boolean' }, 'allow-host-commands': { type: 'boolean' }, 'pod-network': { type: 'boolean' }, 'no-pod-network': { type: 'boolean' }, 'eviction-hard': { type: 'string' } });
  const nodeName = typeof flags.name === 'string' ? flags.name : '';
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(nodeName)) {
    process.stderr.write('usage: kv node --name <node-name> [--data-dir DIR] [--kubeconfig FILE] [--nodes-total N] [--stop-pods-on-exit]\n');
    process.exit(2);
  }
  const nodesTotal = Number(flags['nodes-total'] ?? 1);
  const wantNetwork = flags['pod-network'] === true || (flags['no-pod-network'] !== true && process.env.KV_POD_NETWORK !== '0');
  const lacking = wantNetwork ? podNetworkUnavailableReason() : 'the pod network is turned off (--no-pod-network or KV_POD_NETWORK=0)';
  if (lacking) process.stderr.write(`kv node: no pod network (${lacking}); pods share the host's network\n`);
  const evictionHard = evictionThresholdsFrom(flags['eviction-hard'], process.env.KV_EVICTION_HARD);
  const kubelet = new Kubelet({
    kc: kubeConfigFromFlags(flags),
    nodeName,
    dataDir: dataDirFromFlags(flags),
    nodesTotal: Number.isInteger(nodesTotal) && nodesTotal > 0 ? nodesTotal : 1,
    stopPodsOnExit: flags['stop-pods-on-exit'] === true,
    allowHostCommands: flags['allow-host-commands'] === true,
    podNetwork: !lacking,
    noPodNetworkReason: lacking,
    evictionHard,
  });
  const logger = log.child({ component: 'kubelet', node: nodeName });
  logger.info('kubelet starting');
  if (!process.env[BUNDLE_ENV]) void ensureKvBundle(logger); // launcher Pods start from it; under `kv up` they run its pinned build
  await kubelet.run(stopSignal(shared));
  finishRun(shared);
}

/** --eviction-hard, else $KV_EVICTION_HARD (so `kv up` passes it to every node), else kubelet's defaults; bad syntax exits 2. */
function evictionThresholdsFrom(flag: unknown, env: string | undefined): EvictionThreshold[] {
  const spec = typeof flag === 'string' ? flag : env ?? DEFAULT_EVICTION_HARD;
  try {
    return parseEvictionHard(spec);
  } catch (err) {
    if (!(err instanceof EvictionThresholdError)) throw err;
    process.stderr.write(`kv node: --eviction-hard: ${err.message}\n`);
    process.exit(2);
  }
}
