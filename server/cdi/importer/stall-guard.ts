/**
 * A watch on a child process's I/O: when it has neither read nor written a byte for `stallMs`
 * (Linux's /proc/<pid>/io counts socket and file bytes alike), `onStall` runs once. qemu-img's
 * curl driver (QEMU 7.2) can stop mid-transfer with every request answered and no socket or timer
 * left to wake it, waiting forever; this is how the importer notices.
 */
import { readFile } from 'node:fs/promises';

/** the process's bytes read + written so far, or undefined once it is gone */
async function ioBytes(pid: number): Promise<number | undefined> {
  try {
    const text = await readFile(`/proc/${pid}/io`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    return field('rchar') + field('wchar');
  } catch {
    return undefined;
  }
}

/** starts watching; the returned function stops it */
export function guardStall(pid: number, stallMs: number, onStall: () => void): () => void {
  let last = -1;
  let since = Date.now();
  let stopped = false;
  const tick = Math.max(50, Math.min(1000, Math.floor(stallMs / 4)));
  const timer = setInterval(() => {
    void ioBytes(pid).then((n) => {
      if (stopped || n === undefined) return;
      const now = Date.now();
      if (n !== last) {
        last = n;
        since = now;
      } else if (now - since >= stallMs) {
        stop();
        onStall();
      }
    });
  }, tick);
  timer.unref();
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  return stop;
}
