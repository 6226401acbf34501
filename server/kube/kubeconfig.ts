import { existsSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { shareConnections } from './shared-agent';

const IN_CLUSTER_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';

/**
 * The KubeConfig every component uses, from (first match wins): an explicit path (--kubeconfig),
 * $KUBECONFIG, the in-cluster service account, then ~/.kube/config.
 * A plain-http server (tests, a local proxy) is allowed: client-node refuses http:// unless
 * skipTLSVerify is set on the cluster.
 */
export function loadKubeConfig(path?: string): KubeConfig {
  const kc = new KubeConfig();
  const file = path ?? process.env.KUBECONFIG?.split(':').find((p) => p !== '');
  if (file) kc.loadFromFile(file);
  else if (process.env.KUBERNETES_SERVICE_HOST && existsSync(`${containerRoot()}${IN_CLUSTER_TOKEN}`)) kc.loadFromCluster(containerRoot());
  else kc.loadFromDefault();
  return shareConnections(allowPlainHttp(kc));
}

/**
 * Where a container's mount points are when the process kubelet could not bind-mount them (it was
 * not root): KV_CONTAINER_ROOT holds links at the mount paths (server/node/container-mounts.ts).
 */
function containerRoot(): string {
  return process.env.KV_CONTAINER_ROOT ?? '';
}

/** A KubeConfig for a server URL and bearer token (tests, `kv up` before the kubeconfig is written). */
export function makeKubeConfig(opts: { server: string; token?: string; caPem?: string }): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'kv', server: opts.server, caData: opts.caPem ? Buffer.from(opts.caPem).toString('base64') : undefined, skipTLSVerify: false }],
    users: [{ name: 'kv', token: opts.token }],
    contexts: [{ name: 'kv', cluster: 'kv', user: 'kv' }],
    currentContext: 'kv',
  });
  return shareConnections(allowPlainHttp(kc));
}

function allowPlainHttp(kc: KubeConfig): KubeConfig {
  const needsFix = kc.clusters.some((c) => c.server.startsWith('http://') && !c.skipTLSVerify);
  if (!needsFix) return kc;
  const fixed = new KubeConfig();
  fixed.loadFromOptions({
    clusters: kc.clusters.map((c) => (c.server.startsWith('http://') ? { ...c, skipTLSVerify: true } : c)),
    users: kc.users,
    contexts: kc.contexts,
    currentContext: kc.currentContext,
  });
  return fixed;
}
