import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestRegistry } from '../../images/testing/oci-registry';
import { importImage } from '../../images/image-store';
import { registrySourceDisk } from './registry-source';

let dir: string;
let reg: TestRegistry;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kv-cdi-registry-'));
  reg = await new TestRegistry().start();
});
afterAll(async () => {
  await reg.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('a DataVolume registry source', () => {
  it('pulls the containerDisk into the store and gives its disk', async () => {
    const disk = Buffer.alloc(1 << 20, 5);
    const pushed = await reg.pushContainerDisk('containerdisks/dv-source', 'v1', disk);
    const file = await registrySourceDisk(join(dir, 'images'), pushed.reference);
    expect((await readFile(file!)).equals(disk)).toBe(true);
    expect(reg.blobGets.get(pushed.layerDigest)).toBe(1);
  });

  it('fails the import with the registry\'s answer', async () => {
    const ref = `${reg.host}/containerdisks/dv-source:nope`;
    await expect(registrySourceDisk(join(dir, 'images'), ref)).rejects.toThrow(`failed to pull image "${ref}": manifest unknown: manifest unknown`);
  });

  it('uses an image imported by hand without asking any registry', async () => {
    await writeFile(join(dir, 'local.img'), Buffer.alloc(1 << 20, 6));
    await importImage(join(dir, 'images'), 'quay.io/offline/disk:v1', join(dir, 'local.img'));
    const file = await registrySourceDisk(join(dir, 'images'), 'quay.io/offline/disk:v1');
    expect((await readFile(file!))[0]).toBe(6);
  });
});
