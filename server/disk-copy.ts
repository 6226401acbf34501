/**
 * Copying a disk image the way snapshots and restores need it: `cp --sparse=always` (holes stay
 * holes, only written blocks are copied) with `--reflink=auto` (a clone where the filesystem has
 * them) — except into a Block volume's file, which is written in place (never replaced, so
 * whoever holds it open keeps the same file).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Copies `from` to `to`; a failure says `what` failed and cp's own words. */
export async function copyDiskFile(from: string, to: string, opts: { inPlace?: boolean; what: string }): Promise<void> {
  try {
    await run('cp', opts.inPlace ? ['--sparse=always', from, to] : ['--reflink=auto', '--sparse=always', from, to]);
  } catch (err) {
    throw new Error(`${opts.what}: ${(err as { stderr?: string }).stderr?.trim() || (err as Error).message}`, { cause: err });
  }
}
