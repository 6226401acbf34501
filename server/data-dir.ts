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
 *   DIR/console/sessions.db        console sessions and one-time sign-in codes, hashed (0600)
 *   DIR/images/                    local image store (containerDisk names → files)
 *   DIR/nodes/<node>/              a node's runtime dir (kubelet state, pod dirs, launcher sockets)
 *   DIR/storage/snapshots/<ns>/<content>/<volume>.img   VM snapshot copies (virt-controller writes, the provisioner restores from)
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
  consoleSessions: join(dir, 'console', 'sessions.db'),
  /** where the console listens (written by the console at start, read by `kv console login-link`) */
  consoleUrl: join(dir, 'console', 'url'),
  componentKubeconfig: (component: string) => join(dir, 'apiserver', 'kubeconfigs', `${component}.kubeconfig`),
  images: join(dir, 'images'),
  nodes: join(dir, 'nodes'),
  /** the static CPU manager's exclusive CPUs, shared by the nodes of one host (kubelet's cpu_manager_state) */
  cpuManagerState: join(dir, 'nodes', 'cpu_manager_state'),
  node: (name: string) => join(dir, 'nodes', name),
  /** the bearer token a node's virt-handler accepts from virt-api (written by the handler at start) */
  handlerToken: (node: string) => join(dir, 'nodes', node, 'handler.token'),
  logs: join(dir, 'logs'),
  bundle: join(dir, 'bundle'),
  /** one VirtualMachineSnapshotContent's copies, `<volume>.img` each */
  snapshotContent: (namespace: string, content: string) => join(dir, 'storage', 'snapshots', namespace, content),
});

/** the kernel's limit for a unix socket path (sun_path is 108 bytes with the terminating NUL) */
export const UNIX_SOCKET_PATH_MAX = 107;
const LONGEST_POD_SOCKET = 'launcher.sock';
const POD_UID_LENGTH = 36;

/**
 * The longest unix socket path a cluster in `dir` creates (a launcher's socket in a pod dir);
 * checked at start so a long data dir is a clear error then, not a QEMU failure at the first VM.
 */
export function longestSocketPath(dir: string, nodeName: string): string {
  return join(dataPaths(dir).node(nodeName), 'pods', 'u'.repeat(POD_UID_LENGTH), LONGEST_POD_SOCKET);
}

export function checkSocketPathLength(dir: string, nodeName: string): void {
  const longest = Buffer.byteLength(longestSocketPath(dir, nodeName));
  if (longest > UNIX_SOCKET_PATH_MAX) {
    throw new Error(`data dir ${dir} is too long: its unix sockets would be ${longest} bytes, over the kernel's ${UNIX_SOCKET_PATH_MAX}; use a data dir of at most ${Buffer.byteLength(dir) - (longest - UNIX_SOCKET_PATH_MAX)} bytes`);
  }
}
