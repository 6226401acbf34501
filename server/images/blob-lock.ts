/**
 * One download of a blob per data dir, also across processes (the kubelets of a `kv up` cluster
 * share the store): the downloader holds `<blob>.lock` (holding its pid); others wait for the blob
 * to appear, or take over when the holder died. The lock appears with its pid already in it
 * (written to a private file, then hard-linked into place, which fails if the lock exists), so a
 * waiter never reads a half-made lock as a dead holder's.
 */
import { existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { link, rm, writeFile } from 'node:fs/promises';

const POLL_MS = 100;

function holderAlive(lock: string): boolean {
  try {
    const pid = Number(readFileSync(lock, 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EPERM' || code === 'ENOENT'; // ENOENT: released meanwhile, look again
  }
}

async function takeLock(lock: string): Promise<boolean> {
  const mine = `${lock}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(mine, String(process.pid));
  try {
    await link(mine, lock);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return false;
  } finally {
    await rm(mine, { force: true });
  }
}

/** Runs `download` unless `file` exists or appears while another process downloads it. */
export async function downloadOnce(file: string, download: () => Promise<unknown>): Promise<boolean> {
  const lock = `${file}.lock`;
  for (;;) {
    if (existsSync(file)) return false;
    if (!(await takeLock(lock))) {
      if (!holderAlive(lock)) await rm(lock, { force: true });
      else await new Promise((r) => setTimeout(r, POLL_MS));
      continue;
    }
    try {
      if (existsSync(file)) return false;
      await download();
      return true;
    } finally {
      await rm(lock, { force: true });
    }
  }
}
