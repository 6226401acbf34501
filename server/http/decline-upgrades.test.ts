import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { declineUpgrades } from './decline-upgrades';

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

/** what a keep-alive client gets for `requests` sent one after the other on one connection, and how long it took */
function exchange(port: number, requests: string[]): Promise<{ text: string; ms: number }> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const s = connect({ host: '127.0.0.1', port });
    let text = '';
    s.on('connect', () => s.write(requests.join('')));
    s.on('data', (d) => {
      text += d.toString();
      if ((text.match(/^HTTP\/1\.1 /gm) ?? []).length === requests.length) s.destroy();
    });
    s.on('close', () => resolve({ text, ms: Date.now() - t0 }));
    setTimeout(() => s.destroy(), 4000);
  });
}

async function listen(): Promise<number> {
  server = createServer((_req, res) => res.end('ok'));
  server.keepAliveTimeout = 3000;
  declineUpgrades(server);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return (server.address() as AddressInfo).port;
}

const upgradeThenGet = [
  'GET /a HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
  'GET /b HTTP/1.1\r\nHost: x\r\n\r\n',
];

describe('servers that serve no upgrade', () => {
  it('answer an upgrade request with a 400 at once and close, so the client never waits on that connection', async () => {
    const { text, ms } = await exchange(await listen(), upgradeThenGet);
    expect(text).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(text).toContain('this endpoint does not upgrade connections');
    expect(ms).toBeLessThan(1000);
  });

});
