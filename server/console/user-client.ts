/**
 * A KubeConfig that acts as the signed-in user: the console's cluster (server, CA) from its
 * kubeconfig, the user from the session's bearer token. Nothing of the console's own identity is kept.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { loadKubeConfig } from '../kube/kubeconfig';

let base: KubeConfig | undefined;

/** Tests (and a console started with an explicit config) set the cluster to act on. */
export function setBaseKubeConfig(kc: KubeConfig): void {
  base = kc;
}

function baseConfig(): KubeConfig {
  base ??= loadKubeConfig();
  return base;
}

export function kubeConfigForToken(token: string, from: KubeConfig = baseConfig()): KubeConfig {
  const cluster = from.getCurrentCluster();
  if (!cluster) throw new Error('the console kubeconfig has no current cluster');
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ ...cluster, name: 'cluster' }],
    users: [{ name: 'user', token }],
    contexts: [{ name: 'user', cluster: 'cluster', user: 'user' }],
    currentContext: 'user',
  });
  return kc;
}

export function apiServerUrl(kc: KubeConfig): string {
  return (kc.getCurrentCluster()?.server ?? '').replace(/\/$/, '');
}
