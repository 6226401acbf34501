import { readControl, readKeyedCount } from './cgroup-fs';

/**
 * What a cgroup's processes use, from its memory controller files (bytes):
 * `usage` — memory.usage_in_bytes (v1) / memory.current (v2): anonymous memory, page cache, kernel memory;
 * `peak` — memory.max_usage_in_bytes (v1) / memory.peak (v2, kernel ≥ 5.19; undefined before);
 * `workingSet` — usage minus inactive file pages, kubelet's measure for eviction (what cannot be dropped cheaply).
 */
export interface MemoryUsage {
  usage: number;
  peak?: number;
  workingSet: number;
}

const num = (text: string | undefined) => (text === undefined || text.trim() === '' || !/^\d+$/.test(text.trim()) ? undefined : Number(text.trim()));

/** The memory use of the cgroup at `dir` (its memory hierarchy's dir on v1), or undefined when it has none (gone, not a memory cgroup). */
export function readMemoryUsage(dir: string, version: 'v1' | 'v2'): MemoryUsage | undefined {
  const usage = num(readControl(dir, version === 'v1' ? 'memory.usage_in_bytes' : 'memory.current'));
  if (usage === undefined) return undefined;
  const peak = num(readControl(dir, version === 'v1' ? 'memory.max_usage_in_bytes' : 'memory.peak'));
  // v1 memory.stat: total_* counts the cgroup and its children (a Pod's cgroup has none of ours, but stay correct)
  const inactiveFile = readKeyedCount(dir, 'memory.stat', version === 'v1' ? 'total_inactive_file' : 'inactive_file');
  return { usage, peak, workingSet: Math.max(0, usage - inactiveFile) };
}
