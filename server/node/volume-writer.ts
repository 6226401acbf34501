/**
 * Writes a file volume the way the kubelet's atomic writer does: the files go into a fresh
 * `..<timestamp>` dir, `..data` is switched to it by one rename, and each top-level name is a link
 * through `..data`. A process that has the volume bind-mounted sees the new files at once (a token
 * refresh), never a half-written set.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { VolumeFiles } from './pod-volume-files';

const DATA = '..data';

export function writeVolumeAtomically(dir: string, files: VolumeFiles): void {
  mkdirSync(dir, { recursive: true });
  const stamp = `..${new Date().toISOString().replace(/[:.]/g, '_')}.${process.pid}.${Math.random().toString(36).slice(2, 8)}`;
  const fresh = join(dir, stamp);
  mkdirSync(fresh, { mode: 0o755 });
  for (const [rel, f] of files) {
    const p = join(fresh, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, f.content, { mode: f.mode });
    chmodSync(p, f.mode);
  }
  const tmpLink = join(dir, `${DATA}_tmp`);
  rmSync(tmpLink, { force: true });
  symlinkSync(stamp, tmpLink);
  renameSync(tmpLink, join(dir, DATA));
  const top = new Set([...files.keys()].map((rel) => rel.split('/')[0]));
  for (const name of top) {
    const link = join(dir, name);
    if (!existsSync(link) && !isLink(link)) symlinkSync(join(DATA, name), link);
  }
  for (const e of readdirSync(dir)) {
    if (e.startsWith('..') && e !== DATA && e !== stamp) rmSync(join(dir, e), { recursive: true, force: true });
    else if (!e.startsWith('..') && !top.has(e)) rmSync(join(dir, e), { recursive: true, force: true });
  }
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}
