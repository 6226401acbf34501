/**
 * Pulls containerDisks over HTTP from a real (in-process) OCI registry into a real image store:
 * digests checked, layers and disks shared, pull policies, token auth with pull-secret credentials.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createQcow2 } from './qemu-img';
import { ensureImage } from './image-pull';
import { resolveImage } from './image-store';
import { readManifest } from './store-layout';
import { imageDirName } from './image-name';
import { parseDockerConfigSecret } from './registry/docker-config';
import { containerDiskLayer, TestRegistry } from './testing/oci-registry';

let root: string;
let reg: TestRegistry;
let qcow2: Buffer;
const images = () => join(root, 'images');

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'kv-pull-'));
  await createQcow2(join(root, 'src.qcow2'), 16 << 20);
  qcow2 = await readFile(join(root, 'src.qcow2'));
  reg = await new TestRegistry().start();
});
afterAll(async () => {
  await reg.stop();
  await rm(root, { recursive: true, force: true });
});

describe('pulling a containerDisk from a registry', () => {
  it('pulls anonymously over http, records the digest and serves the disk to the launcher', async () => {
    const pushed = await reg.pushContainerDisk('containerdisks/demo-disk', 'v1', qcow2);
    const r = await ensureImage(images(), pushed.reference);
    expect(r).toMatchObject({ pulled: true, digest: pushed.manifestDigest, blobsDownloaded: 1 });
    const entry = resolveImage(images(), pushed.reference)!;
    expect(entry.format).toBe('qcow2');
    expect(await readFile(entry.disk!)).toEqual(qcow2);
    expect(readManifest(join(images(), imageDirName(pushed.reference)!))).toMatchObject({ digest: pushed.manifestDigest, source: `${reg.host}/containerdisks/demo-disk@${pushed.manifestDigest}` });
  });

  it('shares layers and the disk between references: a second tag of the same image downloads no blob', async () => {
    await reg.pushContainerDisk('containerdisks/demo-disk', 'v1-again', qcow2);
    reg.resetCounts();
    const r = await ensureImage(images(), `${reg.host}/containerdisks/demo-disk:v1-again`);
    expect(r).toMatchObject({ pulled: true, blobsDownloaded: 0 });
    expect(reg.counts.blobGet).toBe(0);
    const a = await stat(resolveImage(images(), `${reg.host}/containerdisks/demo-disk:v1`)!.disk!);
    const b = await stat(r.entry.disk!);
    expect(b.ino).toBe(a.ino); // one disk file on the node, linked into both
  });

  it('IfNotPresent (a versioned tag) asks the registry nothing the second time', async () => {
    reg.resetCounts();
    const r = await ensureImage(images(), `${reg.host}/containerdisks/demo-disk:v1`);
    expect(r.pulled).toBe(false);
    expect(reg.counts).toMatchObject({ manifestGet: 0, manifestHead: 0, blobGet: 0 });
  });

  it('Always (:latest) re-resolves the tag and downloads only when its digest changed', async () => {
    const first = await reg.pushContainerDisk('containerdisks/moving', 'latest', Buffer.alloc(1 << 20, 1));
    const ref = `${reg.host}/containerdisks/moving`;
    expect((await ensureImage(images(), ref)).digest).toBe(first.manifestDigest);
    reg.resetCounts();
    expect(await ensureImage(images(), ref)).toMatchObject({ pulled: false, digest: first.manifestDigest });
    expect(reg.counts).toMatchObject({ manifestHead: 1, manifestGet: 0, blobGet: 0 });
    const second = await reg.pushContainerDisk('containerdisks/moving', 'latest', Buffer.alloc(1 << 20, 2));
    reg.resetCounts();
    const r = await ensureImage(images(), ref);
    expect(r).toMatchObject({ pulled: true, digest: second.manifestDigest, blobsDownloaded: 1 });
    expect(r.entry.format).toBe('raw');
    expect((await readFile(resolveImage(images(), ref)!.disk!))[0]).toBe(2);
  });

  it('Never uses only what the node has', async () => {
    await reg.pushContainerDisk('containerdisks/never', 'v1', qcow2);
    await expect(ensureImage(images(), `${reg.host}/containerdisks/never:v1`, { policy: 'Never' }))
      .rejects.toThrow(`Container image "${reg.host}/containerdisks/never:v1" is not present with pull policy of Never`);
    expect(resolveImage(images(), `${reg.host}/containerdisks/never:v1`)).toBeUndefined();
  });

  it('picks linux/amd64 from an index and pulls by digest', async () => {
    const pushed = await reg.pushContainerDisk('containerdisks/multi', 'v2', Buffer.alloc(4096, 3), { index: true, docker: true });
    const r = await ensureImage(images(), pushed.reference);
    expect(r.digest).toBe(pushed.manifestDigest);
    const byDigest = await ensureImage(images(), `${reg.host}/containerdisks/multi@${pushed.manifestDigest}`);
    expect(byDigest).toMatchObject({ pulled: true, blobsDownloaded: 0, digest: pushed.manifestDigest });
  });

  it('coalesces concurrent pulls of one image into one download', async () => {
    const pushed = await reg.pushContainerDisk('containerdisks/busy', 'v1', Buffer.alloc(2 << 20, 4));
    reg.resetCounts();
    const all = await Promise.all([1, 2, 3].map(() => ensureImage(images(), pushed.reference)));
    expect(all.map((r) => r.digest)).toEqual([pushed.manifestDigest, pushed.manifestDigest, pushed.manifestDigest]);
    expect(reg.blobGets.get(pushed.layerDigest)).toBe(1);
    expect(reg.counts.manifestGet).toBe(1);
  });

  it('refuses a tampered blob and keeps nothing of it', async () => {
    const pushed = await reg.pushContainerDisk('containerdisks/tampered', 'v1', Buffer.alloc(4096, 5));
    reg.tampered.set(pushed.layerDigest, Buffer.from('evil'));
    await expect(ensureImage(images(), pushed.reference)).rejects.toThrow(`blob digest mismatch: expected ${pushed.layerDigest}`);
    expect(resolveImage(images(), pushed.reference)).toBeUndefined();
    reg.tampered.delete(pushed.layerDigest);
    expect((await ensureImage(images(), pushed.reference)).blobsDownloaded).toBe(1);
  });

  it('lets a slow download take longer than the timeout, and gives up on one that stalls', async () => {
    const slow = await reg.pushContainerDisk('containerdisks/slow', 'v1', Buffer.alloc(64 << 10, 7));
    reg.throttled.set(slow.layerDigest, 100); // 8 chunks, 100 ms apart: ~0.8 s in all
    expect((await ensureImage(images(), slow.reference, { timeoutMs: 400 })).blobsDownloaded).toBe(1);
    const stalled = await reg.pushContainerDisk('containerdisks/stalled', 'v1', Buffer.alloc(64 << 10, 8));
    reg.throttled.set(stalled.layerDigest, Infinity);
    await expect(ensureImage(images(), stalled.reference, { timeoutMs: 400 })).rejects.toThrow(`blob ${stalled.layerDigest} download failed: blob download stalled for 400 ms`);
    expect(resolveImage(images(), stalled.reference)).toBeUndefined();
  });

  it('sends a request again once when the registry drops the connection, and says so when it drops it twice', async () => {
    const pushed = await reg.pushContainerDisk('containerdisks/flaky', 'v1', Buffer.alloc(4096, 13));
    reg.dropNext = 1;
    expect((await ensureImage(images(), pushed.reference)).digest).toBe(pushed.manifestDigest);
    const again = await reg.pushContainerDisk('containerdisks/flaky', 'v2', Buffer.alloc(4096, 14));
    reg.dropNext = 2;
    await expect(ensureImage(images(), again.reference)).rejects.toThrow(new RegExp(`^failed to reach ${reg.host}: (UND_ERR_SOCKET|ECONNRESET|other side closed)`));
    expect(reg.dropNext).toBe(0);
  });

  it("says what the registry said for an unknown tag, and why an image is no containerDisk", async () => {
    await expect(ensureImage(images(), `${reg.host}/containerdisks/demo-disk:nope`)).rejects.toThrow('manifest unknown: manifest unknown');
    const layer = await containerDiskLayer(Buffer.from('x'), 'x', [{ name: 'disk/.wh.x', data: Buffer.alloc(0) }]);
    const pushed = await reg.pushContainerDisk('containerdisks/empty', 'v1', Buffer.alloc(0), { layer });
    await expect(ensureImage(images(), pushed.reference)).rejects.toThrow('no disk found: the image has no file in /disk/');
  });
});

describe('kv images pull / ls', () => {
  it('pre-pulls into a data dir and lists the image with its digest', async () => {
    const pushed = await reg.pushContainerDisk('containerdisks/cli', 'v1', Buffer.alloc(8192, 6));
    const kv = (...args: string[]) => promisify(execFile)(process.execPath, [fileURLToPath(new URL('../../bin/kv.mjs', import.meta.url)), 'images', ...args, '--data-dir', root], { env: { ...process.env, KV_LOG_LEVEL: 'warn' } });
    expect((await kv('pull', pushed.reference)).stdout).toBe(`pulled ${pushed.reference}@${pushed.manifestDigest} (1 new layer)\n`);
    expect((await kv('pull', pushed.reference)).stdout).toBe(`${pushed.reference}@${pushed.manifestDigest} is up to date\n`);
    const listed = JSON.parse((await kv('ls', '-o', 'json')).stdout) as { name: string; digest?: string; source?: string }[];
    expect(listed.find((i) => i.name === pushed.reference)).toMatchObject({ digest: pushed.manifestDigest, source: `${reg.host}/containerdisks/cli@${pushed.manifestDigest}` });
    expect((await kv('ls')).stdout).toMatch(new RegExp(`${pushed.reference}\\s+raw\\s+8.0KiB\\s+disk\\s+${pushed.manifestDigest.slice(0, 19)}`));
  });

  it('two processes pulling one image at once download each blob once; a dead downloader\'s lock is taken over', async () => {
    const pushed = await reg.pushContainerDisk('containerdisks/shared', 'v1', Buffer.alloc(256 << 10, 10));
    reg.throttled.set(pushed.layerDigest, 100);
    const kv = (...args: string[]) => promisify(execFile)(process.execPath, [fileURLToPath(new URL('../../bin/kv.mjs', import.meta.url)), 'images', ...args, '--data-dir', root], { env: { ...process.env, KV_LOG_LEVEL: 'warn' } });
    const outs = await Promise.all([kv('pull', pushed.reference), kv('pull', `${reg.host}/containerdisks/shared@${pushed.manifestDigest}`)]);
    expect(reg.blobGets.get(pushed.layerDigest)).toBe(1);
    const joined = outs.map((o) => o.stdout).join('');
    expect(joined).toContain(`pulled ${reg.host}/containerdisks/shared@${pushed.manifestDigest} (`); // not …@digest@digest
    expect(joined.match(/\(1 new layer\)/g)).toHaveLength(1);
    expect(joined.match(/\(0 new layers\)/g)).toHaveLength(1);

    const other = await reg.pushContainerDisk('containerdisks/orphan', 'v1', Buffer.alloc(4096, 11));
    const dead = spawnSync('true').pid!; // a pid that no longer runs
    await writeFile(join(images(), '.oci', 'blobs', 'sha256', `${other.layerDigest.slice(7)}.lock`), String(dead));
    expect((await ensureImage(images(), other.reference)).blobsDownloaded).toBe(1);
  });
});

describe('a registry that wants a token', () => {
  let secure: TestRegistry;
  beforeAll(async () => { secure = await new TestRegistry({ auth: { username: 'alice', password: 'pw' } }).start(); });
  afterAll(async () => { await secure.stop(); });

  const secret = (user: string, pass: string, host: string) => parseDockerConfigSecret('kubernetes.io/dockerconfigjson', {
    '.dockerconfigjson': Buffer.from(JSON.stringify({ auths: { [host]: { auth: Buffer.from(`${user}:${pass}`).toString('base64') } } })).toString('base64'),
  });

  it('refuses anonymous and wrong credentials with the registry\'s answer, pulls with the pull secret', async () => {
    const pushed = await secure.pushContainerDisk('private/disk', 'v1', qcow2);
    await expect(ensureImage(images(), pushed.reference)).rejects.toThrow('unauthorized: the token service answered 401: unauthorized: incorrect username or password');
    await expect(ensureImage(images(), pushed.reference, { auths: [secret('alice', 'nope', secure.host)] })).rejects.toThrow(/^unauthorized:/);
    const r = await ensureImage(images(), pushed.reference, { auths: [secret('bob', 'x', 'other.io'), secret('alice', 'pw', secure.host)] });
    expect(r).toMatchObject({ pulled: true, digest: pushed.manifestDigest });
    expect(secure.counts.token).toBe(3);
  });
});

describe('a registry that wants Basic credentials', () => {
  let basic: TestRegistry;
  beforeAll(async () => { basic = await new TestRegistry({ auth: { username: 'bob', password: 'b0b', scheme: 'basic' } }).start(); });
  afterAll(async () => { await basic.stop(); });

  it('says so without credentials and pulls with them (username/password form)', async () => {
    const pushed = await basic.pushContainerDisk('private/basic', 'v1', Buffer.alloc(4096, 12));
    await expect(ensureImage(images(), pushed.reference)).rejects.toThrow(`unauthorized: ${basic.host} asks for credentials and no imagePullSecret has any for it`);
    const auths = parseDockerConfigSecret('kubernetes.io/dockerconfigjson', {
      '.dockerconfigjson': Buffer.from(JSON.stringify({ auths: { [`http://${basic.host}`]: { username: 'bob', password: 'b0b' } } })).toString('base64'),
    });
    expect(await ensureImage(images(), pushed.reference, { auths: [auths] })).toMatchObject({ pulled: true, digest: pushed.manifestDigest });
    expect(basic.counts.token).toBe(0);
  });
});
