import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FifoPool, mkfifoCommand, type FifoMaker } from './fifo-pool';

/** the real mkfifo, counting the processes it runs */
function countingMaker() {
  const calls = { batches: 0, single: 0 };
  const maker: FifoMaker = {
    make: (paths) => { calls.batches++; return mkfifoCommand.make(paths); },
    makeNow: (path) => { calls.single++; mkfifoCommand.makeNow(path); },
  };
  return { maker, calls };
}

const isFifo = (p: string) => lstatSync(p).isFIFO();
const mode = (p: string) => lstatSync(p).mode & 0o777;

describe('FifoPool', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('makes the first FIFO on the spot, then serves the next ones from one background batch', async () => {
    root = mkdtempSync(join(tmpdir(), 'fifo-pool-'));
    const { maker, calls } = countingMaker();
    const pool = new FifoPool(join(root, '.pool'), maker, 8);
    pool.take(join(root, 'a'));
    expect(isFifo(join(root, 'a'))).toBe(true);
    expect(mode(join(root, 'a'))).toBe(0o600);
    expect(calls).toEqual({ batches: 1, single: 1 }); // the pool was empty: one now, a batch of 8 started
    await pool.refill(); // already under way: resolves when that batch is in
    expect(pool.size).toBe(8);
    for (const name of ['b', 'c', 'd', 'e']) pool.take(join(root, name));
    for (const name of ['b', 'c', 'd', 'e']) expect(isFifo(join(root, name)) && mode(join(root, name)) === 0o600).toBe(true);
    expect(calls.single).toBe(1); // four containers' FIFOs, no process run for them
    expect(calls.batches).toBe(2); // down to half: the next batch started in the background
    await pool.refill(); // the batch under way: resolves once it is in the pool
    expect(pool.size).toBe(12);
  });

  it('uses the FIFOs an earlier kubelet left in the pool', async () => {
    root = mkdtempSync(join(tmpdir(), 'fifo-pool-'));
    const first = new FifoPool(join(root, '.pool'), mkfifoCommand, 4);
    await first.refill();
    expect(readdirSync(join(root, '.pool'))).toHaveLength(4);
    const { maker, calls } = countingMaker();
    const again = new FifoPool(join(root, '.pool'), maker, 4);
    expect(again.size).toBe(4);
    again.take(join(root, 'x'));
    expect(isFifo(join(root, 'x'))).toBe(true);
    expect(calls.single).toBe(0);
  });

  it('still makes the FIFO when the pool cannot be filled', () => {
    root = mkdtempSync(join(tmpdir(), 'fifo-pool-'));
    const failing: FifoMaker = { make: () => Promise.reject(new Error('no mkfifo')), makeNow: mkfifoCommand.makeNow };
    const pool = new FifoPool(join(root, '.pool'), failing, 4);
    pool.take(join(root, 'a'));
    pool.take(join(root, 'b'));
    expect(isFifo(join(root, 'a')) && isFifo(join(root, 'b'))).toBe(true);
  });
});
