/** The image store against real qemu-img and genisoimage. */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeNoCloudMedia } from './cloud-init-media';
import { ImageExistsError, ImageImportError, importDemoImage, importImage, listImages, resolveImage } from './image-store';

let work: string;
let images: string;

beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'kv-image-store-'));
  images = join(work, 'images');
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

function qemuImg(format: string, name: string, size = '4M'): string {
  const file = join(work, name);
  execFileSync('qemu-img', ['create', '-q', '-f', format, file, size]);
  return file;
}

function fakeDemoBuild(dir: string, buildKey: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'vmlinuz'), `kernel ${buildKey}`);
  writeFileSync(join(dir, 'initrd.gz'), `initrd ${buildKey}`);
  writeFileSync(join(dir, 'cmdline'), 'console=ttyS0 quiet\n');
  writeFileSync(join(dir, 'image.json'), JSON.stringify({ name: 'demo', buildKey, kernel: 'vmlinuz', initrd: 'initrd.gz' }));
  return dir;
}

const isReadOnly = (f: string) => (statSync(f).mode & 0o222) === 0;

describe('importImage', () => {
  it.each([
    ['qcow2', 'qcow2', () => qemuImg('qcow2', 'a.qcow2')],
    ['raw', 'raw', () => qemuImg('raw', 'a.img')],
    ['vmdk', 'qcow2', () => qemuImg('vmdk', 'a.vmdk')],
  ])('imports a %s disk as %s, read-only, resolvable by name', async (_label, format, make) => {
    const entry = await importImage(images, 'quay.io/org/disk:v1', make());
    expect(entry.format).toBe(format);
    expect(isReadOnly(entry.disk!)).toBe(true);
    expect(resolveImage(images, 'quay.io/org/disk:v1')).toEqual(entry);
    expect(listImages(images).map((i) => i.name)).toEqual(['quay.io/org/disk:v1']);
  });

  it('detects an ISO', async () => {
    const iso = join(work, 'x.iso');
    await makeNoCloudMedia({ outFile: iso, metaData: 'instance-id: x\n' });
    expect((await importImage(images, 'installer', iso)).format).toBe('iso');
  });

  it('keeps its own copy: changing the source afterwards does not change the image', async () => {
    const src = qemuImg('raw', 'a.img', '64K');
    const entry = await importImage(images, 'disk', src);
    writeFileSync(src, Buffer.alloc(65536, 7));
    expect(readFileSync(entry.disk!).every((b) => b === 0)).toBe(true);
  });

  it('refuses a qcow2 with a backing file', async () => {
    const base = qemuImg('qcow2', 'base.qcow2');
    const top = join(work, 'top.qcow2');
    execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', '-b', base, '-F', 'qcow2', top]);
    await expect(importImage(images, 'disk', top)).rejects.toThrow(/backing file/);
  });

  it.each(['../escape', '/abs', 'UPPER', 'a/../b'])('refuses the name %j and writes nothing', async (name) => {
    await expect(importImage(images, name, qemuImg('qcow2', 'a.qcow2'))).rejects.toBeInstanceOf(ImageImportError);
    expect(readdirSync(work).sort()).toEqual(['a.qcow2']);
  });

  it.each([
    ['a missing file', () => join(work, 'missing.qcow2'), /cannot read/],
    ['an empty file', () => { writeFileSync(join(work, 'empty'), ''); return join(work, 'empty'); }, /empty/],
  ])('refuses %s and leaves nothing in the store', async (_label, file, message) => {
    await expect(importImage(images, 'disk', file())).rejects.toThrow(message);
    expect(listImages(images)).toEqual([]);
    expect(existsSync(images) ? readdirSync(images) : []).toEqual([]);
  });

  it('does not overwrite an image unless asked to', async () => {
    await importImage(images, 'disk:v1', qemuImg('qcow2', 'a.qcow2', '1M'));
    await expect(importImage(images, 'disk:v1', qemuImg('raw', 'b.img'))).rejects.toBeInstanceOf(ImageExistsError);
    expect(resolveImage(images, 'disk:v1')!.format).toBe('qcow2');
    await importImage(images, 'disk:v1', qemuImg('raw', 'b.img'), { replace: true });
    expect(resolveImage(images, 'disk:v1')!.format).toBe('raw');
    expect(readdirSync(images)).toEqual(['disk=v1']);
  });
});

describe('resolveImage', () => {
  it.each(['missing', '../x', '', 'a b'])('gives undefined for %j', (ref) => {
    expect(resolveImage(images, ref)).toBeUndefined();
  });

  it('ignores a manifest naming files outside its directory', async () => {
    const entry = await importImage(images, 'disk', qemuImg('qcow2', 'a.qcow2'));
    const manifest = join(entry.dir, 'image.json');
    chmodSync(manifest, 0o644);
    writeFileSync(manifest, JSON.stringify({ name: 'disk:latest', format: 'raw', disk: '../../../etc/passwd' }));
    expect(resolveImage(images, 'disk')).toBeUndefined();
  });
});

describe('importDemoImage', () => {
  it('registers demo with kernel, initrd, cmdline and a disk; demo and demo:latest are the same image', async () => {
    const entry = await importDemoImage(images, fakeDemoBuild(join(work, 'build'), 'k1'));
    expect(entry).toMatchObject({ name: 'demo:latest', format: 'qcow2', cmdline: 'console=ttyS0 quiet' });
    expect(readFileSync(entry.kernel!, 'utf8')).toBe('kernel k1');
    expect(readFileSync(entry.initrd!, 'utf8')).toBe('initrd k1');
    expect(JSON.parse(execFileSync('qemu-img', ['info', '--output=json', entry.disk!], { encoding: 'utf8' })).format).toBe('qcow2');
    expect(resolveImage(images, 'demo')).toEqual(resolveImage(images, 'demo:latest'));
  });

  it('skips an identical build and replaces an older one', async () => {
    const build = join(work, 'build');
    await importDemoImage(images, fakeDemoBuild(build, 'k1'));
    const first = listImages(images)[0].importedAt;
    await importDemoImage(images, build);
    expect(listImages(images)[0].importedAt).toBe(first);
    const next = await importDemoImage(images, fakeDemoBuild(build, 'k2'));
    expect(readFileSync(next.kernel!, 'utf8')).toBe('kernel k2');
  });

  it("stands in for KubeVirt's cirros demo containerDisk unless that image was imported", async () => {
    const demo = await importDemoImage(images, fakeDemoBuild(join(work, 'build'), 'k1'));
    const ref = 'quay.io/kubevirt/cirros-container-disk-demo:v1.5.0';
    expect(resolveImage(images, ref)).toEqual(demo);
    const own = await importImage(images, ref, qemuImg('qcow2', 'c.qcow2'));
    expect(resolveImage(images, ref)).toEqual(own);
  });

  it('says how to build the demo when the build dir is empty', async () => {
    await expect(importDemoImage(images, join(work, 'nothing'))).rejects.toThrow(/build-demo-image\.sh/);
  });
});
