/** `kv images` as a user runs it (through bin/kv.mjs). */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTable } from './cli';

const KV = fileURLToPath(new URL('../../bin/kv.mjs', import.meta.url));
let work: string;

const kv = (...args: string[]) => spawnSync(process.execPath, [KV, 'images', ...args, '--data-dir', work], { encoding: 'utf8', env: { ...process.env, KV_LOG_LEVEL: 'warn' } });

beforeAll(async () => { work = await mkdtemp(join(tmpdir(), 'kv-images-cli-')); });
afterAll(async () => { await rm(work, { recursive: true, force: true }); });

describe('kv images', () => {
  it('imports a disk and lists it', () => {
    const disk = join(work, 'disk.qcow2');
    execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', disk, '1M']);
    const imported = kv('import', 'quay.io/me/disk:v1', disk);
    expect(imported.status).toBe(0);
    expect(imported.stdout).toContain('imported quay.io/me/disk:v1 (qcow2)');
    const listed = kv('ls', '-o', 'json');
    expect(JSON.parse(listed.stdout).map((i: { name: string }) => i.name)).toEqual(['quay.io/me/disk:v1']);
  });

  it('exits 2 with a message for a bad name', () => {
    const res = kv('import', '../../etc', '/dev/null');
    expect(res.status).toBe(2);
    expect(res.stderr).toMatch(/invalid image name/);
  });
});

describe('formatTable', () => {
  it('aligns columns and shows sizes and boot kind', () => {
    const out = formatTable([
      { name: 'demo:latest', dir: '/d', format: 'qcow2', kernel: '/d/vmlinuz', importedAt: 't1', sizeBytes: 16_000_000 },
      { name: 'disk:v1', dir: '/e', format: 'raw', importedAt: 't2', sizeBytes: 512, digest: `sha256:${'ab'.repeat(32)}` },
    ]);
    expect(out.split('\n')).toEqual([
      'NAME          FORMAT   SIZE    BOOT     DIGEST                IMPORTED',
      'demo:latest   qcow2    15MiB   kernel   -                     t1',
      'disk:v1       raw      512B    disk     sha256:abababababab   t2',
      '',
    ]);
  });
});
