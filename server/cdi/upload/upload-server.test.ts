import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { KubeConfig } from '@kubernetes/client-node';
import { createUploadServer } from './upload-server';

const server = createUploadServer({} as KubeConfig, {
  resolve: async () => ({ error: 'not used', code: 404 }),
  finished: async () => undefined,
}, { authorize: async () => ({ ok: false, code: 401, message: 'invalid token' }) } as never);
let port = 0;
beforeAll(async () => { await new Promise<void>((r) => server.listen(0, '127.0.0.1', r)); port = (server.address() as AddressInfo).port; });
afterAll(async () => { await new Promise((r) => server.close(r)); });

/** the status line the server answers a raw request with */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => s.end(request));
    let out = '';
    s.on('data', (d) => { out += d; });
    s.on('end', () => resolve(out.split('\r\n')[0]));
    s.on('error', reject);
  });
}

it.each([
  'POST //x:99999/ HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
  'GET //[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  'GET http://[ HTTP/1.0\r\nConnection: close\r\n\r\n',
])('a malformed request target is the client\'s 400, never a 500: %j', async (request) => {
  expect(await raw(request)).toBe('HTTP/1.1 400 Bad Request');
});

it('answers /healthz and refuses an upload without a valid token', async () => {
  expect(await raw('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).toBe('HTTP/1.1 200 OK');
  expect(await raw('POST /v1beta1/upload HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n')).toBe('HTTP/1.1 401 Unauthorized');
});
