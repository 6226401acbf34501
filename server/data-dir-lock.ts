import { linkSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One cluster per data dir: `kv up` (and a lone `kv apiserver`) hold DIR/kv.lock, a file naming
 * the holder's pid. A second start on the same dir refuses before it touches anything; a lock
 * left by a process that died is taken over. Created atomically (write a private file, then
 * link it into place: the link fails when the lock exists).
 */
export const LOCK_FILE = 'kv.lock';

export class DataDirInUseError extends Error {
  constructor(readonly dataDir: string, readonly holder: { pid: number; command: string }) {
    super(`data dir ${dataDir} is in use by ${holder.command} (pid ${holder.pid}); stop it first or pass another --data-dir`);
  }
}

interface LockHolder { pid: number; command: string }

function readHolder(path: string): LockHolder | undefined {
  try {
    const h = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    return typeof h.pid === 'number' ? { pid: h.pid, command: String(h.command ?? 'kv') } : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryLink(tmp: string, lock: string): boolean {
  try {
    linkSync(tmp, lock);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/**
 * takes the data dir's lock (or another lock file in it, e.g. the API server's own) for this
 * process; returns the release function
 */
export function lockDataDir(dataDir: string, command: string, file = LOCK_FILE): () => void {
  const lock = join(dataDir, file);
  const tmp = `${lock}.${process.pid}`;
  writeFileSync(tmp, JSON.stringify({ pid: process.pid, command }), { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      if (tryLink(tmp, lock)) return () => releaseIfOurs(lock);
      const holder = readHolder(lock);
      if (holder && holder.pid !== process.pid && isAlive(holder.pid)) throw new DataDirInUseError(dataDir, holder);
      rmSync(lock, { force: true }); // stale: its holder is gone
    }
    throw new Error(`could not take the lock ${lock}`);
  } finally {
    rmSync(tmp, { force: true });
  }
}

function releaseIfOurs(lock: string): void {
  if (readHolder(lock)?.pid !== process.pid) return;
  try { unlinkSync(lock); } catch { /* already gone */ }
}
