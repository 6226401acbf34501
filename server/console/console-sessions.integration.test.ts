/**
 * Sign-in and sessions against a real embedded API server and the console's real route handlers
 * and sockets: the one-time link works once and expires; sign-out ends a copied cookie at once, for
 * HTTP calls and WebSockets (an open one is closed); a session outlives a console restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startApiServer, type ApiServer } from '../apiserver/server';
import { makeKubeConfig } from '../kube/kubeconfig';
import { closeConsoleSessions, SESSION_DB_ENV } from './console-sessions';
import { mintLoginLink } from './login-link';
import { SESSION_COOKIE } from './session-cookie';
import { startConsoleRoutes } from './testing/route-host';
import { setBaseKubeConfig } from './user-client';

let api: ApiServer;
let dataDir: string;
let console: Awaited<ReturnType<typeof startConsoleRoutes>>;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kv-signin-'));
  api = await startApiServer({ dataDir, port: 0 });
  setBaseKubeConfig(makeKubeConfig({ server: api.url, token: api.adminToken, caPem: api.caPem }));
  delete process.env[SESSION_DB_ENV];
  console = await startConsoleRoutes(dataDir);
});

afterAll(async () => {
  await console?.close();
  await api?.close();
  closeConsoleSessions();
  rmSync(dataDir, { recursive: true, force: true });
});

/** opens a link as a browser would; the session cookie it set (if any) */
async function follow(url: string): Promise<{ status: number; body: string; cookie?: string }> {
  const res = await fetch(url, { redirect: 'manual' });
  const set = res.headers.get('set-cookie') ?? '';
  const cookie = set.startsWith(`${SESSION_COOKIE}=`) ? set.split(';')[0] : undefined;
  return { status: res.status, body: await res.text(), cookie };
}

const apiCall = (cookie: string) => fetch(`${console.origin}/api/kube/api/v1/namespaces/default/configmaps`, { headers: { cookie } });

function openWatch(cookie: string): Promise<{ ws: WebSocket; status?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${console.origin.replace('http', 'ws')}/ws/watch`, { headers: { origin: console.origin, cookie } });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => resolve({ ws, status: res.statusCode }));
    ws.once('error', () => undefined);
  });
}

async function signIn(): Promise<string> {
  const r = await follow(mintLoginLink(dataDir, console.origin, api.adminToken).url);
  expect(r.cookie).toBeDefined();
  return r.cookie!;
}

describe('the one-time sign-in link', () => {
  it('signs in once; the same link again lands on the sign-in page saying why', async () => {
    const { url } = mintLoginLink(dataDir, console.origin, api.adminToken);
    expect(url).toMatch(/\/login\?code=[A-Za-z0-9_-]{43}$/);
    expect(url).not.toContain(api.adminToken);
    const first = await follow(url);
    expect(first.status).toBe(200);
    expect(first.body).toContain('url=/"');
    expect((await apiCall(first.cookie!)).status).toBe(200);
    const again = await follow(url);
    expect(again.status).toBe(401);
    expect(again.cookie).toBeUndefined();
    expect(again.body).toContain('/signin?error=link');
  });

  it('is refused once expired', async () => {
    const { url } = mintLoginLink(dataDir, console.origin, api.adminToken, 1);
    await new Promise((r) => setTimeout(r, 1100));
    const r = await follow(url);
    expect(r.status).toBe(401);
    expect(r.cookie).toBeUndefined();
  });

  it('a made-up code signs nobody in; no code is the sign-in page', async () => {
    expect((await follow(`${console.origin}/login?code=made-up`)).status).toBe(401);
    expect((await follow(`${console.origin}/login`)).body).toContain('url=/signin"');
  });
});

describe('sign-out', () => {
  it('ends a copied cookie at once: API calls get 401, an open watch socket is closed, a new one is refused', async () => {
    const cookie = await signIn();
    const copied = cookie;
    expect((await apiCall(copied)).status).toBe(200);
    const { ws, status } = await openWatch(copied);
    expect(status).toBeUndefined();
    const closed = new Promise<number | 'still open'>((r) => {
      ws.once('close', (code) => r(code));
      setTimeout(() => r('still open'), 3000);
    });

    const out = await fetch(`${console.origin}/api/session`, { method: 'DELETE', headers: { cookie, origin: console.origin } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);

    expect(await closed).toBe(4401);
    ws.terminate();
    const after = await apiCall(copied);
    expect(after.status).toBe(401);
    expect(((await after.json()) as { message: string }).message).toMatch(/sign in again/);
    expect((await openWatch(copied)).status).toBe(401);
    expect(((await (await fetch(`${console.origin}/api/session`, { headers: { cookie: copied } })).json()) as { signedIn: boolean }).signedIn).toBe(false);
  });

  it('a cross-origin sign-out is refused and the session lives on', async () => {
    const cookie = await signIn();
    expect((await fetch(`${console.origin}/api/session`, { method: 'DELETE', headers: { cookie, origin: 'http://evil.example' } })).status).toBe(403);
    expect((await apiCall(cookie)).status).toBe(200);
  });
});

describe('sessions', () => {
  it('outlive a console restart', async () => {
    const cookie = await signIn();
    await console.close();
    closeConsoleSessions();
    console = await startConsoleRoutes(dataDir);
    expect((await apiCall(cookie)).status).toBe(200);
    const { ws, status } = await openWatch(cookie);
    expect(status).toBeUndefined();
    ws.close();
  });

  it('signing in with a token (the /signin page) makes a server-side session too', async () => {
    const bad = await fetch(`${console.origin}/api/session`, { method: 'POST', headers: { origin: console.origin, 'content-type': 'application/json' }, body: JSON.stringify({ token: 'nope' }) });
    expect(bad.status).toBe(401);
    const res = await fetch(`${console.origin}/api/session`, { method: 'POST', headers: { origin: console.origin, 'content-type': 'application/json' }, body: JSON.stringify({ token: api.viewerToken }) });
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
    expect(cookie).not.toContain(api.viewerToken);
    expect((await apiCall(cookie)).status).toBe(200);
  });
});
