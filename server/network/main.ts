/**
 * `kv network`: the embedded cluster's service and policy plane, one instance for all local nodes
 * (they share the host's network namespace): the endpoints controller (Endpoints and EndpointSlices),
 * the service proxy (nftables, kube-proxy's nftables mode as the model), the cluster DNS on
 * 10.96.0.10 and the NetworkPolicy enforcer. Without a pod network (not root, tools missing, turned
 * off) only the endpoints controller runs and the rest says why it does not.
 */
import { log } from '../log';
import { kubeConfigFromFlags, parseFlags } from '../node/cli-flags';
import { finishRun, stopSignal, type SharedRun } from '../shared-run';
import { podNetworkUnavailableReason } from '../node/network/pod-network';
import { runEndpointsController } from './endpoints/endpoints-controller';
import { runServiceProxy } from './proxy/service-proxy';
import { runClusterDns } from './dns/cluster-dns';
import { runNetworkPolicyEnforcer } from './policy/enforcer';

/** Why the host-level parts cannot run, or undefined when they can. */
export function networkPlaneUnavailableReason(): string | undefined {
  if (process.env.KV_POD_NETWORK === '0') return 'the pod network is turned off (KV_POD_NETWORK=0)';
  return podNetworkUnavailableReason();
}

export async function runNetworkCommand(argv: string[], shared?: SharedRun): Promise<void> {
  const flags = parseFlags(argv, {});
  const kc = kubeConfigFromFlags(flags);
  const signal = stopSignal(shared);
  const logger = log.child({ component: 'network' });
  const runs = [runEndpointsController({ kc, signal, log: logger.child({ part: 'endpoints' }) })];
  const lacking = networkPlaneUnavailableReason();
  if (lacking) {
    logger.warn({ reason: lacking }, 'no pod network: Services get Endpoints but no forwarding, no cluster DNS, NetworkPolicies are not enforced');
  } else {
    runs.push(
      runServiceProxy({ kc, signal, log: logger.child({ part: 'proxy' }) }),
      runClusterDns({ kc, signal, log: logger.child({ part: 'dns' }) }),
      runNetworkPolicyEnforcer({ kc, signal, log: logger.child({ part: 'policy' }) }),
    );
  }
  logger.info({ server: kc.getCurrentCluster()?.server, parts: runs.length }, 'network plane running');
  await Promise.all(runs);
  finishRun(shared);
}
