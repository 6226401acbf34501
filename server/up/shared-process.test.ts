import { describe, expect, it } from 'vitest';
import { shareProcess } from './shared-process';

describe('shareProcess', () => {
  it('runs every component through one `kv control-plane` with its own flags', () => {
    const spec = shareProcess('control-plane', [{ name: 'scheduler', args: ['scheduler', '--data-dir', '/d'] }, { name: 'node-1-kubelet', args: ['node', '--name', 'node-1'] }]);
    expect(spec.name).toBe('control-plane');
    expect(spec.args).toEqual(['control-plane', 'scheduler', '--data-dir', '/d', '--and', 'node', '--name', 'node-1']);
    expect(spec.liveness).toBeUndefined();
    expect(spec.nodeFlags).toEqual(['--max-semi-space-size=2']); // a smaller young generation: ~30 MiB less RSS
  });

  it('is live only while every component answers its own probe', async () => {
    let handlerUp = true;
    const spec = shareProcess('cp', [
      { name: 'storage', args: ['storage'], liveness: { check: async () => true } },
      { name: 'node-1-handler', args: ['handler'], liveness: { check: async () => handlerUp } },
      { name: 'node-2-handler', args: ['handler'], liveness: { check: async () => { throw new Error('refused'); } } },
    ]);
    expect(await spec.liveness!.check(1000)).toBe(false); // one throws: not live
    const two = shareProcess('cp', [
      { name: 'storage', args: ['storage'], liveness: { check: async () => true } },
      { name: 'node-1-handler', args: ['handler'], liveness: { check: async () => handlerUp } },
    ]);
    expect(await two.liveness!.check(1000)).toBe(true);
    handlerUp = false;
    expect(await two.liveness!.check(1000)).toBe(false);
  });

  it('hands each probe the timeout', async () => {
    const seen: number[] = [];
    const spec = shareProcess('cp', [{ name: 'a', args: ['storage'], liveness: { check: async (t) => { seen.push(t); return true; } } }]);
    await spec.liveness!.check(750);
    expect(seen).toEqual([750]);
  });
});
