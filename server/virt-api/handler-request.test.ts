import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { requestHandler } from './handler-request';

let server: Server | undefined;
afterEach(async () => { await new Promise((r) => server?.close(r) ?? r(undefined)); server = undefined; });

/** A handler that counts what it served and, from `closeReused`, drops any request on a socket it already answered on. */
async function serve(opts: { closeReused: boolean }): Promise<{ url: string; served: string[] }> {
  const served: string[] = [];
  const answered = new WeakSet<Socket>();
  server = createServer((req, res) => {
    if (opts.closeReused && answered.has(req.socket)) return void req.socket.destroy();
    served.push(`${req.method} ${req.url} ${req.headers.authorization}`);
    answered.add(req.socket);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, served };
}

describe('requestHandler', () => {
  it('sends the token and relays status, type and body', async () => {
    const h = await serve({ closeReused: false });
    const r = await requestHandler(`${h.url}/v1/x/pause`, 'PUT', 'tok', 5_000);
    expect(r).toMatchObject({ status: 200, contentType: 'application/json' });
    expect(JSON.parse(r.body.toString())).toEqual({ ok: true });
    expect(h.served).toEqual(['PUT /v1/x/pause Bearer tok']);
  });

  it('a kept-alive socket the handler closed as it was reused: sent again once on a new one, served once', async () => {
    const h = await serve({ closeReused: true });
    await requestHandler(`${h.url}/v1/a/pause`, 'PUT', 't', 5_000);
    const again = await requestHandler(`${h.url}/v1/b/unpause`, 'PUT', 't', 5_000);
    expect(again.status).toBe(200);
    expect(h.served).toEqual(['PUT /v1/a/pause Bearer t', 'PUT /v1/b/unpause Bearer t']);
  });

  it('every idle socket of the pool closed at once: the resend still gets through, on a connection of its own', async () => {
    const h = await serve({ closeReused: true });
    await Promise.all([1, 2, 3].map((i) => requestHandler(`${h.url}/v1/v${i}/pause`, 'PUT', 't', 5_000)));
    const again = await requestHandler(`${h.url}/v1/w/unpause`, 'PUT', 't', 5_000);
    expect(again.status).toBe(200);
    expect(h.served).toHaveLength(4);
  });

  it('a handler that is not listening: the error names its code', async () => {
    const h = await serve({ closeReused: false });
    await new Promise((r) => server!.close(r));
    server = undefined;
    await expect(requestHandler(`${h.url}/v1/a/pause`, 'PUT', 't', 5_000)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('a handler that never answers: timed out, with the bound in the message', async () => {
    server = createServer(() => { /* never answers */ });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await expect(requestHandler(`${url}/v1/a/pause`, 'PUT', 't', 200)).rejects.toThrow(/no answer within 200 ms/);
    server.closeAllConnections();
  });
});
