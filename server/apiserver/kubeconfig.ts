import { writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { stringify } from 'yaml';

export const CLUSTER_NAME = 'kubevirt-ts';

/** the kubeconfig text for a user of the embedded cluster (CA embedded, bearer token) */
export function renderKubeconfig(opts: { server: string; caPem: string; token: string; user?: string }): string {
  const user = opts.user ?? 'admin';
  const context = user === 'admin' ? CLUSTER_NAME : `${user}@${CLUSTER_NAME}`;
  return stringify({
    apiVersion: 'v1', kind: 'Config', preferences: {},
    clusters: [{ name: CLUSTER_NAME, cluster: { server: opts.server, 'certificate-authority-data': Buffer.from(opts.caPem).toString('base64') } }],
    users: [{ name: user, user: { token: opts.token } }],
    contexts: [{ name: context, context: { cluster: CLUSTER_NAME, user, namespace: 'default' } }],
    'current-context': context,
  });
}

/** writes DIR/kubeconfig with mode 0600 */
export function writeKubeconfig(path: string, opts: { server: string; caPem: string; token: string; user?: string }): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, renderKubeconfig(opts), { mode: 0o600 });
  chmodSync(path, 0o600);
}
