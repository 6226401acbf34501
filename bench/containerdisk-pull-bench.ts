/**
 * containerDisk pulls from the in-process test registry over loopback into a fresh image store:
 * a cold pull (manifest, layer download and sha256 check, gunzip + untar of /disk/, qemu-img info),
 * a warm pull of a second tag of the same image (layers and disk cached: manifest only), an
 * IfNotPresent hit (no request) and an Always re-check (one HEAD).
 * Usage: KV_LOG_LEVEL=warn node --import tsx bench/containerdisk-pull-bench.ts [MiB=100]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { TestRegistry } from '../server/images/testing/oci-registry';
import { ensureImage } from '../server/images/image-pull';

const MIB = Number(process.argv[2] ?? 100);

async function timed<T>(what: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const r = await fn();
  console.log(`${what.padEnd(44)} ${(performance.now() - t0).toFixed(0).padStart(6)} ms`);
  return r;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kv-pull-bench-'));
  try {
    // a qcow2 whose clusters are half random (incompressible) and half zeros, like a real disk
    const raw = Buffer.alloc(MIB << 20);
    for (let off = 0; off < raw.length; off += 2 << 20) randomBytes(1 << 20).copy(raw, off);
    writeFileSync(join(dir, 'disk.raw'), raw);
    execFileSync('qemu-img', ['convert', '-f', 'raw', '-O', 'qcow2', join(dir, 'disk.raw'), join(dir, 'disk.qcow2')]);
    const disk = readFileSync(join(dir, 'disk.qcow2'));
    const reg = await new TestRegistry().start();
    const a = await reg.pushContainerDisk('bench/disk', 'v1', disk);
    await reg.pushContainerDisk('bench/disk', 'v1-copy', disk);
    const images = join(dir, 'images');
    console.log(`containerDisk: ${(disk.length / 2 ** 20).toFixed(0)} MiB qcow2 (${MIB} MiB virtual), gzip layer`);
    await timed('cold pull (download, verify, extract)', () => ensureImage(images, a.reference));
    await timed('warm pull of another tag (cached layer)', () => ensureImage(images, `${reg.host}/bench/disk:v1-copy`));
    await timed('IfNotPresent, present (no request)', () => ensureImage(images, a.reference));
    await timed('Always, unchanged (one HEAD)', () => ensureImage(images, a.reference, { policy: 'Always' }));
    console.log(`registry requests: ${JSON.stringify(reg.counts)}`);
    await reg.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
