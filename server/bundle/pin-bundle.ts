/**
 * `kv up` pins one `kv` build for its cluster: a copy of a fresh build in the data dir, named to
 * every component by KV_BUNDLE and passed on by the kubelet to launcher Pods. One cluster then
 * runs one version of the code (as a real cluster runs one release), however the sources change
 * while it runs, and the shared build cache can be pruned without pulling files from under it.
 */
import { cp, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { freshBundleEntry } from '../../bin/kv-bundle.mjs';
import type { Logger } from '../log';
import type { BuildOptions } from './build-bundle';
import { ensureKvBundle } from './ensure-bundle';

export const BUNDLE_ENV = 'KV_BUNDLE';

/** Copies a fresh build to `pinDir`; returns the entry to set as KV_BUNDLE, or undefined (tsx). */
export async function pinKvBundle(pinDir: string, logger: Logger, opts: BuildOptions = {}): Promise<string | undefined> {
  if (process.env.KV_NO_BUNDLE === '1') return undefined;
  if (await ensureKvBundle(logger, opts) === 'unavailable') return undefined;
  const entry = freshBundleEntry(opts.root, opts.projectDir); // the shared build, not whatever KV_BUNDLE says
  if (!entry) return undefined;
  const staging = `${pinDir}.${process.pid}.tmp`;
  try {
    await rm(staging, { recursive: true, force: true });
    await cp(dirname(entry), staging, { recursive: true });
    await rm(pinDir, { recursive: true, force: true });
    await rename(staging, pinDir);
    return join(pinDir, basename(entry));
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'kv bundle not pinned; components load their sources through tsx');
    await rm(staging, { recursive: true, force: true });
    return undefined;
  }
}
