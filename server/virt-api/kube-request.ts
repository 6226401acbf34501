/** Send JSON to the API server with a KubeConfig's credentials and CA; resolves with status and body. */
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

export function postJson(kc: KubeConfig, path: string, body: object): Promise<{ status: number; json: any }> {
  return requestJson(kc, 'POST', path, body);
}

export async function requestJson(kc: KubeConfig, method: string, path: string, body?: object): Promise<{ status: number; json: any }> {
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error('kubeconfig has no current cluster');
  const url = new URL(server.replace(/\/$/, '') + path);
  const opts: https.RequestOptions = { method, headers: { 'content-type': 'application/json', accept: 'application/json' } };
  await kc.applyToHTTPSOptions(opts);
  delete opts.agent;
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(url, opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        let json: any = {};
        try { json = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { /* not JSON */ }
        resolve({ status: res.statusCode ?? 0, json });
      });
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
