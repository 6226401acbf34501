/**
 * One identity cannot hold more than its share of watches: with the limit set to 5, the viewer's
 * sixth watch is a 429 with Retry-After, the admin (system:masters) is not counted, and closing one
 * watch frees a slot at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, waitFor, type TestServer, type WatchHandle } from './testing/test-server';
import { WatchLimits } from './rest/read/watch-limits';

describe('WatchLimits', () => {
  it('counts per user, releases once, exempts system:masters', () => {
    const l = new WatchLimits(2);
    const bob = { username: 'bob', groups: [] };
    const r1 = l.acquire(bob)!;
    l.acquire(bob);
    expect(l.acquire(bob)).toBeUndefined();
    r1();
    r1();
    expect(l.heldBy('bob')).toBe(1);
    expect(l.acquire({ username: 'root', groups: ['system:masters'] })).toBeDefined();
  });
});

describe('the API server', () => {
  let t: TestServer;
  const held: WatchHandle[] = [];
  beforeAll(async () => {
    process.env.KV_MAX_WATCHES_PER_USER = '5';
    t = await startTestServer();
  });
  afterAll(async () => {
    delete process.env.KV_MAX_WATCHES_PER_USER;
    held.forEach((w) => w.stop());
    await t?.close();
  });

  it('refuses a sixth watch of one user with 429, lets the admin watch, frees a slot when a watch closes', async () => {
    const viewer = t.srv.viewerToken;
    for (let i = 0; i < 5; i++) held.push(await t.watch('/api/v1/namespaces?watch=true', { token: viewer }));
    const refused = await t.call('GET', '/api/v1/namespaces?watch=true', undefined, { token: viewer });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', message: 'Too many requests, please try again later.' });
    const admin = await t.watch('/api/v1/namespaces?watch=true');
    held.push(admin);
    await waitFor(() => admin.events.length > 0, 5000, 'the admin watch');
    held.shift()!.stop();
    const again = await waitFor(async () => { const w = await t.watch('/api/v1/namespaces?watch=true', { token: viewer }); if (w.events.length || !w.ended()) return w; w.stop(); return undefined; }, 5000, 'a freed slot');
    if (!again) throw new Error('no freed slot');
    held.push(again);
    await waitFor(() => again.events.length > 0, 5000, 'events on the new watch');
  });
});
