import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { containerDiskLayer } from '../testing/oci-registry';
import { diskEntryName, extractDisk } from './extract-disk';

let dir: string;
beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'kv-extract-')); });
afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

async function layerFile(name: string, data: Buffer): Promise<string> {
  const f = join(dir, name);
  await writeFile(f, data);
  return f;
}

describe('diskEntryName', () => {
  it.each([
    ['disk/a.qcow2', 'a.qcow2'], ['./disk/a.img', 'a.img'], ['/disk/x', 'x'],
    ['disk/', undefined], ['disk/sub/a', undefined], ['etc/passwd', undefined], ['disk/..', undefined],
  ])('%s → %s', (entry, want) => { expect(diskEntryName(entry)).toBe(want); });
});

describe('extractDisk', () => {
  it('takes the file under /disk/ from a gzip layer and from a plain tar, ignoring the rest', async () => {
    const disk = Buffer.from('QFI\xfb pretend qcow2', 'latin1');
    const tar = await containerDiskLayer(disk, 'disk.qcow2', [{ name: 'etc/hostname', data: Buffer.from('x') }]);
    for (const [name, layer] of [['gz', gzipSync(tar)], ['plain', tar]] as const) {
      const out = await mkdtemp(join(dir, `out-${name}-`));
      const got = await extractDisk([await layerFile(name, layer)], out);
      expect(got.name).toBe('disk.qcow2');
      expect(await readFile(got.file)).toEqual(disk);
      expect(await readdir(out)).toHaveLength(1);
    }
  });

  it('applies layers in order: a whiteout removes an earlier disk, a later file replaces it', async () => {
    const base = await layerFile('l1', gzipSync(await containerDiskLayer(Buffer.from('old'), 'old.img')));
    const whiteout = await layerFile('l2', gzipSync(await containerDiskLayer(Buffer.from('new'), 'new.img', [{ name: 'disk/.wh.old.img', data: Buffer.alloc(0) }])));
    const out = await mkdtemp(join(dir, 'out-'));
    const got = await extractDisk([base, whiteout], out);
    expect(got.name).toBe('new.img');
    expect((await readFile(got.file)).toString()).toBe('new');
    expect(await readdir(out)).toEqual([got.file.split('/').pop()]);
  });

  it('says so when /disk/ is empty or holds two files', async () => {
    const none = await layerFile('none', await containerDiskLayer(Buffer.from('x'), 'x', [{ name: 'disk/.wh..wh..opq', data: Buffer.alloc(0) }]));
    await expect(extractDisk([none], await mkdtemp(join(dir, 'o1-')))).rejects.toThrow('no disk found: the image has no file in /disk/');
    const two = await layerFile('two', await containerDiskLayer(Buffer.from('a'), 'a.img', [{ name: 'disk/b.img', data: Buffer.from('b') }]));
    await expect(extractDisk([two], await mkdtemp(join(dir, 'o2-')))).rejects.toThrow('more than one file found in /disk/ (a.img, b.img), only one disk is allowed');
  });

  it('refuses a layer that is not a tar', async () => {
    const junk = await layerFile('junk', gzipSync(Buffer.alloc(1024, 7)));
    await expect(extractDisk([junk], await mkdtemp(join(dir, 'o3-')))).rejects.toThrow(/layer 1 is not a readable tar/);
  });
});
