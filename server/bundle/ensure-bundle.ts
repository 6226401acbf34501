/**
 * Makes sure the `kv` bundle matches today's sources before processes are started from it
 * (`kv up` before its components, the kubelet before its first launcher Pod). Never fails the
 * caller: without a bundle, bin/kv.mjs falls back to tsx, which is only slower.
 */
import { freshBundleEntry } from '../../bin/kv-bundle.mjs';
import type { Logger } from '../log';
import { buildKvBundle, type BuildOptions } from './build-bundle';

export type BundleState = 'fresh' | 'built' | 'unavailable';

export async function ensureKvBundle(logger: Logger, opts: BuildOptions = {}): Promise<BundleState> {
  if (freshBundleEntry(opts.root, opts.projectDir)) return 'fresh';
  const t0 = performance.now();
  try {
    const m = await buildKvBundle(opts);
    logger.info({ entry: m.entry, sources: Object.keys(m.inputs).length, ms: Math.round(performance.now() - t0) }, 'kv bundle built');
    return 'built';
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'kv bundle not built; kv processes load their sources through tsx');
    return 'unavailable';
  }
}
