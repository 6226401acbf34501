/** URL and TLS options for dialing the API server's VNC/serial subresource WebSocket as the user. */
import { readFileSync } from 'node:fs';
import type { KubeConfig } from '@kubernetes/client-node';
import type { ClientOptions } from 'ws';
import { apiServerUrl } from './user-client';

export function upstreamStreamUrl(kc: KubeConfig, r: { kind: string; namespace: string; name: string }): string {
  const base = apiServerUrl(kc).replace(/^http/, 'ws');
  return `${base}/apis/subresources.kubevirt.io/v1/namespaces/${encodeURIComponent(r.namespace)}/virtualmachineinstances/${encodeURIComponent(r.name)}/${r.kind}`;
}

export function upstreamSocketOptions(kc: KubeConfig): ClientOptions {
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  const ca = cluster?.caData ? Buffer.from(cluster.caData, 'base64') : cluster?.caFile ? readFileSync(cluster.caFile) : undefined;
  return {
    headers: user?.token ? { authorization: `Bearer ${user.token}` } : {},
    ca,
    rejectUnauthorized: !cluster?.skipTLSVerify,
    handshakeTimeout: 10_000,
    perMessageDeflate: false,
  };
}
