import { connect } from 'node:tls';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './testing/test-server';

let t: TestServer;
beforeAll(async () => { t = await startTestServer(); });
afterAll(async () => { await t?.close(); });

/** sends one raw HTTP/1.1 request (the exact target bytes) and returns the status code */
function rawStatus(target: string, token?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port: t.srv.port, ca: t.srv.caPem, servername: 'localhost', rejectUnauthorized: false }, () => {
      const auth = token ? `Authorization: Bearer ${token}\r\n` : '';
      s.write(`GET ${target} HTTP/1.1\r\nHost: x\r\n${auth}Connection: close\r\n\r\n`);
    });
    let buf = '';
    s.on('data', (d) => { buf += d.toString('latin1'); });
    s.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(buf)?.[1] ?? 0)));
    s.on('error', reject);
  });
}

it.each([
  ['/%', undefined],
  ['/%', 'admin'],
  ['/api/v1/namespaces/%zz/pods', 'admin'],
  ['/apis/kubevirt.io/v1/namespaces/default/virtualmachines/%C3', 'admin'],
  ['//[', undefined],
  ['//x:99999/api', 'admin'],
])('a malformed target %s (token: %s) is a 400 and the server keeps answering', async (target, who) => {
  expect(await rawStatus(target, who ? t.srv.adminToken : undefined)).toBe(400);
  expect(await rawStatus('/healthz')).toBe(200);
});
