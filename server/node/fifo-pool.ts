/**
 * Named pipes made ahead, in batches, for the containers' log FIFOs (container-log-pipe.ts): a
 * container start takes its two by rename instead of running `mkfifo` twice. Node cannot make a
 * FIFO itself, and every process spawned from a big process blocks its event loop while the kernel
 * copies its page tables: in the shared `kv control-plane` process (several hundred MiB) two
 * synchronous mkfifo runs per launcher Pod held every component there for ~75 ms per Pod under load.
 * One asynchronous mkfifo now makes BATCH of them, the first batch when the kubelet starts. The pool lives beside the Pod dirs (same
 * filesystem, so rename works); a dot name keeps it out of the Pod dir listing. FIFOs left from an
 * earlier kubelet are used first.
 */
import { execFile, execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';

/** a burst of 16 launcher Pods on one node (two FIFOs each) before the pool runs dry */
const BATCH = 32;

export interface FifoMaker {
  /** makes FIFOs (mode 600) at these paths, in the background */
  make(paths: string[]): Promise<void>;
  /** makes one now (the pool ran dry) */
  makeNow(path: string): void;
}

export const mkfifoCommand: FifoMaker = {
  make: (paths) => new Promise((resolve, reject) => execFile('mkfifo', ['-m', '600', '--', ...paths], (err) => (err ? reject(err) : resolve()))),
  makeNow: (path) => void execFileSync('mkfifo', ['-m', '600', '--', path]),
};

export class FifoPool {
  private readonly ready: string[] = [];
  /** the batch under way, if any */
  private refilling?: Promise<void>;
  private seq = 0;

  constructor(private readonly dir: string, private readonly maker: FifoMaker = mkfifoCommand, private readonly batch = BATCH) {
    try {
      for (const name of readdirSync(dir)) if (lstatSync(join(dir, name)).isFIFO()) this.ready.push(join(dir, name));
    } catch {
      // no pool yet
    }
  }

  /** how many FIFOs wait in the pool */
  get size(): number {
    return this.ready.length;
  }

  /** Puts a FIFO at `path` now: one from the pool when it has one, else a fresh one; tops the pool up in the background. */
  take(path: string): void {
    let placed = false;
    while (!placed && this.ready.length) {
      try {
        renameSync(this.ready.pop()!, path);
        placed = true;
      } catch {
        // removed under us, or another filesystem: try the next, then make one
      }
    }
    if (!placed) this.maker.makeNow(path);
    if (this.ready.length <= this.batch / 2) this.refill();
  }

  /** Makes a batch in the background (one process); resolves when it is in the pool (the one under way, if any). */
  refill(): Promise<void> {
    if (this.refilling) return this.refilling;
    try {
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    } catch {
      return Promise.resolve();
    }
    const paths = Array.from({ length: this.batch }, () => join(this.dir, `${process.pid}-${Date.now()}-${this.seq++}`));
    this.refilling = this.maker.make(paths).then(
      () => void this.ready.push(...paths),
      () => undefined, // take() makes its own while the pool is dry
    ).finally(() => { this.refilling = undefined; });
    return this.refilling;
  }
}

const pools = new Map<string, FifoPool>();

/** The pool for FIFOs that go into Pod dirs under `podsDir`. */
export function fifoPoolFor(podsDir: string): FifoPool {
  let pool = pools.get(podsDir);
  if (!pool) pools.set(podsDir, (pool = new FifoPool(join(podsDir, '.fifo-pool'))));
  return pool;
}
