import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { evictionHardFile, thresholdSource } from './threshold-source';
import { parseEvictionHard } from './thresholds';

describe('a node\'s eviction-hard file', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('replaces the flag\'s thresholds while it exists, keeps the last good ones when it does not parse', () => {
    const dir = mkdtempSync(join(tmpdir(), 'evict-src-'));
    dirs.push(dir);
    const fallback = parseEvictionHard('memory.available<100Mi');
    const current = thresholdSource(fallback, dir, pino({ level: 'silent' }));
    expect(current()).toBe(fallback);
    writeFileSync(evictionHardFile(dir), 'memory.available<1000Ti\n');
    expect(current().map((t) => t.text)).toEqual(['1000Ti']);
    writeFileSync(evictionHardFile(dir), 'memory.available>>nonsense, nodefs.available<1%');
    expect(current().map((t) => t.text)).toEqual(['1000Ti']);
    writeFileSync(evictionHardFile(dir), '');
    expect(current()).toEqual([]); // an empty file: no thresholds at all
    rmSync(evictionHardFile(dir));
    expect(current()).toBe(fallback);
  });
});
