/**
 * One download of a blob per data dir, also across processes (the kubelets of a `kv up` cluster
 * share the store): the downloader holds `<blob>.lock` (created O_EXCL, holding its pid); others
 * wait for the blob to appear, or take over when the holder died.
 */
import { existsSync, readFileSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';

const POLL_MS = 100;

function holderAlive(lock: string): boolean {
  try {
    const pid = Number(readFileSync(lock, 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Runs `download` unless `file` exists or appears while another process downloads it. */
export async function downloadOnce(file: string, download: () => Promise<unknown>): Promise<boolean> {
  const lock = `${file}.lock`;
  for (;;) {
    if (existsSync(file)) return false;
    let fh;
    try {
      fh = await open(lock, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (!holderAlive(lock)) await rm(lock, { force: true });
      else await new Promise((r) => setTimeout(r, POLL_MS));
      continue;
    }
    try {
      await fh.writeFile(String(process.pid));
      await fh.close();
      if (existsSync(file)) return false;
      await download();
      return true;
    } finally {
      await rm(lock, { force: true });
    }
  }
}
