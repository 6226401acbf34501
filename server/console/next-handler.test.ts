import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Next itself is the slow, large part this module defers: stand in for it, counting prepares
const prepared = vi.hoisted(() => ({ count: 0, failNext: false }));
vi.mock('next', () => ({
  default: () => ({
    prepare: async () => {
      prepared.count++;
      await new Promise((r) => setTimeout(r, 20));
      if (prepared.failNext) { prepared.failNext = false; throw new Error('prepare failed'); }
    },
    getRequestHandler: () => async (_req: unknown, res: { served: number }) => { res.served++; },
  }),
}));

const { checkProductionBuild, lazyNextHandler } = await import('./next-handler');
type Args = Parameters<ReturnType<typeof lazyNextHandler>['handle']>;
const call = () => { const res = { served: 0 }; return { res, args: [{}, res, {}] as unknown as Args }; };

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); prepared.count = 0; });

describe('the console\'s lazily loaded Next.js handler', () => {
  it('prepares Next once, on the first request, however many arrive at once', async () => {
    const { handle } = lazyNextHandler({ dir: '/x', dev: false, hostname: '127.0.0.1', port: 3000 });
    expect(prepared.count).toBe(0); // nothing loaded before a page is asked for
    const calls = Array.from({ length: 5 }, call);
    await Promise.all(calls.map((c) => handle(...c.args)));
    expect(prepared.count).toBe(1);
    expect(calls.map((c) => c.res.served)).toEqual([1, 1, 1, 1, 1]);
  });

  it('a failed load fails that request and is tried again by the next one', async () => {
    const { handle } = lazyNextHandler({ dir: '/x', dev: false, hostname: '127.0.0.1', port: 3000 });
    prepared.failNext = true;
    await expect(handle(...call().args)).rejects.toThrow('prepare failed');
    const c = call();
    await handle(...c.args);
    expect(c.res.served).toBe(1);
    expect(prepared.count).toBe(2);
  });

  it('refuses to start without a production build, saying what to run', () => {
    const dir = mkdtempSync(join(tmpdir(), 'next-build-')); dirs.push(dir);
    expect(() => checkProductionBuild(dir)).toThrow(/no production build of the console .*run `npm run build`/);
    mkdirSync(join(dir, '.next')); writeFileSync(join(dir, '.next', 'BUILD_ID'), 'abc');
    expect(() => checkProductionBuild(dir)).not.toThrow();
  });
});
