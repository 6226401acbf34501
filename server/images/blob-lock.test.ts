import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { downloadOnce } from './blob-lock';

describe('downloadOnce', () => {
  const dirs: string[] = [];
  afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });
  const scratch = () => { const d = mkdtempSync(join(tmpdir(), 'blob-lock-')); dirs.push(d); return d; };

  it('downloads a blob once when many pullers want it at the same moment', async () => {
    const file = join(scratch(), 'blob');
    let downloads = 0;
    const download = async () => { downloads++; await new Promise((r) => setTimeout(r, 150)); await writeFile(file, 'x'); };
    const results = await Promise.all(Array.from({ length: 12 }, () => downloadOnce(file, download)));
    expect(downloads).toBe(1);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(readdirSync(join(file, '..'))).toEqual(['blob']); // no lock or scratch file left behind
  });

  it("takes over the lock of a downloader that died, and lets the next one in after a failed download", async () => {
    const file = join(scratch(), 'blob');
    await writeFile(`${file}.lock`, String(spawnSync('true').pid));
    await expect(downloadOnce(file, async () => { throw new Error('registry went away'); })).rejects.toThrow('registry went away');
    expect(await downloadOnce(file, () => writeFile(file, 'x'))).toBe(true);
    expect(await downloadOnce(file, () => writeFile(file, 'y'))).toBe(false);
  });
});
