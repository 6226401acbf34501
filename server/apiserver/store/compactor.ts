import { log } from '../../log';
import type { Store } from './types';

const logger = log.child({ component: 'apiserver-store' });

export const DEFAULT_COMPACT_KEEP = 10_000;
export const DEFAULT_COMPACT_INTERVAL_MS = 5 * 60_000;

export interface CompactorOptions {
  /** revisions kept behind the current one (watchers may resume from any of them) */
  keepRevisions?: number;
  intervalMs?: number;
}

/** Compacts once: everything older than `keepRevisions` behind the current revision. Returns the compact revision. */
export function compactStore(store: Store, keepRevisions = DEFAULT_COMPACT_KEEP): number {
  const target = store.currentRevision() - keepRevisions;
  if (target <= store.compactRevision()) return store.compactRevision();
  const started = performance.now();
  store.compact(target);
  logger.info({ revision: target, ms: Math.round(performance.now() - started) }, 'store compacted');
  return target;
}

/** Periodic compaction; returns the function that stops it. */
export function startCompactor(store: Store, opts: CompactorOptions = {}): () => void {
  const keep = opts.keepRevisions ?? DEFAULT_COMPACT_KEEP;
  const timer = setInterval(() => {
    try {
      compactStore(store, keep);
    } catch (err) {
      logger.error({ err }, 'store compaction failed');
    }
  }, opts.intervalMs ?? DEFAULT_COMPACT_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
