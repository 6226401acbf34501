/**
 * Opens a VMI's `console`, `vnc` or `portforward/<port>/tcp` WebSocket (subprotocol plain.kubevirt.io) through the API
 * server with the kubeconfig's credentials. Resolves once the socket is open; a refused upgrade
 * rejects with the server's Status message (e.g. "VMI is not running"), as client-go's dialer does.
 */
import type https from 'node:https';
import WebSocket from 'ws';
import type { KubeConfig } from '@kubernetes/client-node';
import { VirtualMachineInstanceResource, subresourcePath, type ResourceDescriptor } from '../../lib/kubevirt/resources';
import { ApiCallError, statusMessage } from './api-request';

export const PLAIN_SUBPROTOCOL = 'plain.kubevirt.io';

export async function openStream(kc: KubeConfig, namespace: string, name: string, kind: 'console' | 'vnc' | `portforward/${number}/${'tcp' | 'udp'}`, query = '', resource: ResourceDescriptor = VirtualMachineInstanceResource): Promise<WebSocket> {
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new ApiCallError(0, 'the kubeconfig has no current cluster');
  const url = new URL(server.replace(/\/$/, '') + subresourcePath(resource, namespace, name, kind) + query);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const opts: https.RequestOptions = { headers: {} };
  await kc.applyToHTTPSOptions(opts);
  delete opts.agent;
  const ws = new WebSocket(url, [PLAIN_SUBPROTOCOL], {
    ca: opts.ca, cert: opts.cert, key: opts.key, rejectUnauthorized: opts.rejectUnauthorized,
    headers: opts.headers as Record<string, string>, perMessageDeflate: false,
  });
  ws.binaryType = 'nodebuffer';
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', (err) => reject(err));
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const code = res.statusCode ?? 0;
        reject(new ApiCallError(code, statusMessage({ statusCode: code, body: Buffer.concat(chunks), contentType: res.headers['content-type'] })));
      });
      res.on('error', reject);
    });
  });
}
