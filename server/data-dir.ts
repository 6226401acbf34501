import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where everything of one embedded cluster lives. One data dir = one cluster.
 *
 *   DIR/kubeconfig                 cluster-admin kubeconfig (0600)
 *   DIR/apiserver/kubeconfigs/     one kubeconfig per KubeVirt component identity (0600)
 *   DIR/apiserver/state.db         SQLite revision log
 *   DIR/apiserver/pki/             ca.crt ca.key serving.crt serving.key
 *   DIR/apiserver/tokens.json      bearer tokens → users/groups
 *   DIR/images/                    local image store (containerDisk names → files)
 *   DIR/nodes/<node>/              a node's runtime dir (kubelet state, pod dirs, launcher sockets)
 *   DIR/logs/<component>.log       component logs written by `kv up`
 *   DIR/bundle/                    the `kv` build this cluster's processes run (server/bundle/pin-bundle.ts)
 */
export function defaultDataDir(): string {
  return process.env.KV_DATA_DIR ?? join(homedir(), '.kubevirt-ts');
}

export const dataPaths = (dir: string) => ({
  kubeconfig: join(dir, 'kubeconfig'),
  apiserver: join(dir, 'apiserver'),
  db: join(dir, 'apiserver', 'state.db'),
  pki: join(dir, 'apiserver', 'pki'),
  tokens: join(dir, 'apiserver', 'tokens.json'),
  componentKubeconfig: (component: string) => join(dir, 'apiserver', 'kubeconfigs', `${component}.kubeconfig`),
  images: join(dir, 'images'),
  nodes: join(dir, 'nodes'),
  node: (name: string) => join(dir, 'nodes', name),
  logs: join(dir, 'logs'),
  bundle: join(dir, 'bundle'),
});
