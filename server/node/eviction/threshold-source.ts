import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { parseEvictionHard, type EvictionThreshold } from './thresholds';

/** A node's own thresholds, in `--eviction-hard` syntax: `<node dir>/eviction-hard`. */
export const EVICTION_HARD_FILE = 'eviction-hard';
export const evictionHardFile = (nodeDir: string) => join(nodeDir, EVICTION_HARD_FILE);

/**
 * The thresholds in force now: `<node dir>/eviction-hard` while it exists (read again when it
 * changes, so one node of a cluster can be put under pressure without a restart), else `fallback`
 * (the --eviction-hard flag, KV_EVICTION_HARD or kubelet's defaults). A file that does not parse is
 * reported once and the thresholds in force stay.
 */
export function thresholdSource(fallback: EvictionThreshold[], nodeDir: string, log: Logger): () => EvictionThreshold[] {
  const file = evictionHardFile(nodeDir);
  let seen: { stamp: string; thresholds: EvictionThreshold[] } | undefined;
  return () => {
    let stamp: string;
    try {
      const st = statSync(file);
      stamp = `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      seen = undefined;
      return fallback;
    }
    if (seen?.stamp !== stamp) {
      const before = seen?.thresholds ?? fallback;
      try {
        const thresholds = parseEvictionHard(readFileSync(file, 'utf8').trim());
        seen = { stamp, thresholds };
        log.info({ file, thresholds: thresholds.map((t) => `${t.signal}<${t.text}`) }, 'eviction thresholds read');
      } catch (err) {
        seen = { stamp, thresholds: before };
        log.warn({ file, err: (err as Error).message }, 'eviction thresholds file ignored');
      }
    }
    return seen.thresholds;
  };
}
