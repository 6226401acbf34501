/**
 * virt-controller's plain-HTTP endpoint: GET /metrics (Prometheus text, no token, like
 * virt-handler's) and GET /healthz. KubeVirt serves the same metrics over TLS on 8443.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestPathname } from '../../http/request-target';
import { declineUpgrades } from '../../http/decline-upgrades';

export interface MetricsEndpoint { url: string; close(): Promise<void> }

export async function serveMetrics(scrape: () => Promise<{ contentType: string; body: string }>, port: number, host: string): Promise<MetricsEndpoint> {
  const server: Server = createServer((req, res) => {
    const path = requestPathname(req.url);
    if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET, HEAD' }).end();
    if (path === '/healthz') return void res.writeHead(200).end('ok');
    if (path !== '/metrics') return void res.writeHead(path === undefined ? 400 : 404).end();
    scrape().then(
      (m) => res.writeHead(200, { 'content-type': m.contentType }).end(m.body),
      (err: unknown) => res.writeHead(500).end(String((err as Error).message)),
    );
  });
  declineUpgrades(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => { server.off('error', reject); resolve(); });
  });
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
