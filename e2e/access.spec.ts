/**
 * A console opened from another origin is refused: a page on another origin cannot open a VNC or
 * serial socket, and even a request carrying a valid session cookie is refused (HTTP 403) when its
 * Origin is not the console's own — while the same cookie from the right origin gets through.
 */
import { expect, test, type BrowserContext } from '@playwright/test';
import { adminLoginUrl } from './helpers';
import { WebSocket } from 'ws';

const consoleUrl = () => process.env.KV_E2E_CONSOLE_URL!;
const OTHER_ORIGIN = 'http://evil.example';
const VNC_PATH = '/ws/vnc/default/no-such-vm';

async function sessionCookie(context: BrowserContext): Promise<string> {
  const page = await context.newPage();
  await page.goto(adminLoginUrl());
  await page.waitForURL(`${consoleUrl()}/`);
  await page.close();
  return (await context.cookies(consoleUrl())).map((c) => `${c.name}=${c.value}`).join('; ');
}

/** Opens a WebSocket from Node with the given headers: the HTTP status when refused, else the close code. */
function dial(path: string, headers: Record<string, string>): Promise<{ refusedWith?: number; closedWith?: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${consoleUrl().replace(/^http/, 'ws')}${path}`, { headers });
    ws.on('unexpected-response', (_req, res) => { resolve({ refusedWith: res.statusCode }); res.resume(); });
    ws.on('close', (code) => resolve({ closedWith: code }));
    ws.on('error', (err) => { if (!/Unexpected server response/.test(err.message)) reject(err); });
  });
}

test('a console opened from another origin is refused', async ({ browser }) => {
  const context = await browser.newContext();
  const cookie = await sessionCookie(context);
  expect(cookie).toContain('=');

  // The same signed-in session, asked from the console's own origin, reaches the API server
  // (which answers that the VMI does not exist: close code 4000 + 404).
  expect(await dial(VNC_PATH, { cookie, origin: consoleUrl() })).toEqual({ closedWith: 4404 });
  // From another origin, before anything else happens: 403.
  expect(await dial(VNC_PATH, { cookie, origin: OTHER_ORIGIN })).toEqual({ refusedWith: 403 });
  expect(await dial('/ws/console/default/no-such-vm', { cookie, origin: OTHER_ORIGIN })).toEqual({ refusedWith: 403 });
  expect(await dial(VNC_PATH, { cookie })).toEqual({ refusedWith: 403 }); // no Origin at all

  // A page served from another origin in the signed-in browser cannot open the console either.
  await context.route(`${OTHER_ORIGIN}/**`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>elsewhere</title>' }));
  const page = await context.newPage();
  await page.goto(`${OTHER_ORIGIN}/`);
  const opened = await page.evaluate((url) => new Promise<boolean>((resolve) => {
    const ws = new WebSocket(url);
    ws.onopen = () => resolve(true);
    ws.onclose = () => resolve(false);
  }), `${consoleUrl().replace(/^http/, 'ws')}${VNC_PATH}`);
  expect(opened).toBe(false);

  // Writes through the API forwarder: refused from another origin even with the cookie.
  const res = await page.request.post(`${consoleUrl()}/api/kube/apis/kubevirt.io/v1/namespaces/default/virtualmachines`, {
    headers: { cookie, origin: OTHER_ORIGIN, 'content-type': 'application/json' }, data: {},
  });
  expect(res.status()).toBe(403);
  await context.close();
});
