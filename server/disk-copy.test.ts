import { mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync, closeSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyDiskFile } from './disk-copy';

const dir = mkdtempSync(join(tmpdir(), 'disk-copy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** a 64 MiB file with 4 KiB written at its start and end: everything else is a hole */
function sparseDisk(name: string): string {
  const file = join(dir, name);
  const fd = openSync(file, 'w');
  writeSync(fd, Buffer.alloc(4096, 1), 0, 4096, 0);
  writeSync(fd, Buffer.alloc(4096, 2), 0, 4096, (64 << 20) - 4096);
  closeSync(fd);
  return file;
}

describe('copyDiskFile', () => {
  it('copies only the written blocks: the copy is as sparse as the disk and reads the same', async () => {
    const from = sparseDisk('a.img');
    const to = join(dir, 'a-copy.img');
    await copyDiskFile(from, to, { what: 'copying a.img' });
    expect(statSync(to).size).toBe(64 << 20);
    expect(statSync(to).blocks * 512).toBeLessThan(1 << 20);
    expect(readFileSync(to).equals(readFileSync(from))).toBe(true);
  });

  it('writes into a Block volume in place, keeping the file its holders have open', async () => {
    const from = sparseDisk('b.img');
    const to = join(dir, 'block');
    writeFileSync(to, Buffer.alloc(64 << 20, 9));
    const inode = statSync(to).ino;
    await copyDiskFile(from, to, { inPlace: true, what: 'restoring block' });
    expect(statSync(to).ino).toBe(inode);
    expect(readFileSync(to).equals(readFileSync(from))).toBe(true);
  });

  it("says what failed, in cp's words", async () => {
    await expect(copyDiskFile(join(dir, 'missing.img'), join(dir, 'x.img'), { what: 'restoring from the snapshot' }))
      .rejects.toThrow(/^restoring from the snapshot: cp: cannot stat '.*missing\.img': No such file or directory$/);
  });
});
