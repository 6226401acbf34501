import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readMemoryUsage } from './memory-usage';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'memusage-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const put = (file: string, text: string) => writeFileSync(join(dir, file), text);

describe('readMemoryUsage', () => {
  it('v1: usage, peak and working set (usage minus the hierarchy total of inactive file pages)', () => {
    put('memory.usage_in_bytes', '150000000\n');
    put('memory.max_usage_in_bytes', '180000000\n');
    put('memory.stat', 'cache 30000000\ninactive_file 1\ntotal_inactive_file 20000000\ntotal_active_file 5\n');
    expect(readMemoryUsage(dir, 'v1')).toEqual({ usage: 150_000_000, peak: 180_000_000, workingSet: 130_000_000 });
  });

  it('v2: memory.current / memory.peak / inactive_file', () => {
    put('memory.current', '100000000\n');
    put('memory.peak', '120000000\n');
    put('memory.stat', 'anon 80000000\nfile 20000000\ninactive_file 15000000\n');
    expect(readMemoryUsage(dir, 'v2')).toEqual({ usage: 100_000_000, peak: 120_000_000, workingSet: 85_000_000 });
  });

  it('v2 on a kernel without memory.peak: no peak, still a usage', () => {
    put('memory.current', '4096\n');
    expect(readMemoryUsage(dir, 'v2')).toEqual({ usage: 4096, peak: undefined, workingSet: 4096 });
  });

  it('a removed cgroup (no files): undefined, not a zero that would pull a median down', () => {
    expect(readMemoryUsage(join(dir, 'gone'), 'v1')).toBeUndefined();
  });
});
