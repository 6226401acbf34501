import { execFileSync, spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { bundleEntry, freshBundleEntry, MANIFEST_FILE } from '../../bin/kv-bundle.mjs';
import { log } from '../log';
import { buildKvBundle, packageName, type BundleManifest } from './build-bundle';
import { pinKvBundle } from './pin-bundle';

const runKv = (entry: string, args: string[]) => execFileSync(process.execPath, [entry, ...args], { encoding: 'utf8', env: { ...process.env, KV_LOG_LEVEL: 'warn' } });

describe('kv bundle', () => {
  let root: string;
  let manifest: BundleManifest;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'kv-bundle-test-'));
    manifest = await buildKvBundle({ root });
  }, 60_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is used while its sources are unchanged, and not once one of them changed', () => {
    expect(freshBundleEntry(root)).toBe(join(root, manifest.entry));
    expect(Object.keys(manifest.inputs)).toEqual(expect.arrayContaining(['server/cli.ts', 'server/virt-launcher/main.ts', 'tsconfig.json']));
    const edited = { ...manifest, inputs: { ...manifest.inputs, 'server/virt-launcher/main.ts': [1, 1] } };
    writeFileSync(join(root, MANIFEST_FILE), JSON.stringify(edited));
    expect(freshBundleEntry(root)).toBeUndefined();
    writeFileSync(join(root, MANIFEST_FILE), JSON.stringify(manifest));
  });

  it('runs from a cluster\'s pinned copy outside the project (packages and project paths still resolve)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kv-bundle-pin-'));
    try {
      const pinned = await pinKvBundle(join(dataDir, 'bundle'), log, { root });
      expect(pinned).toBe(join(dataDir, 'bundle', 'cli.mjs'));
      expect(bundleEntry({ KV_BUNDLE: pinned })).toBe(pinned);
      // `kv images ls` from /tmp: its npm packages (pino) must resolve from the project, not from the copy's location
      const out = runKv(pinned!, ['images', 'ls', '--data-dir', dataDir]);
      expect(out).toBe(runKv(join(process.cwd(), 'bin', 'kv.mjs'), ['images', 'ls', '--data-dir', dataDir]));
      expect(readFileSync(pinned!, 'utf8')).not.toContain('tsx');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('has yaml built in: no chunk loads yaml from node_modules, and `kv virtctl create vm` from it prints YAML that reads back', () => {
    const dir = join(root, manifest.entry, '..');
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f), 'utf8')).not.toMatch(/from "file:[^"]*\/node_modules\/yaml\//);
    const vm = parseYaml(runKv(join(root, manifest.entry), ['virtctl', 'create', 'vm', '--name', 'built-in-yaml'])) as { kind?: string; metadata?: { name?: string } };
    expect(vm).toMatchObject({ kind: 'VirtualMachine', metadata: { name: 'built-in-yaml' } });
  });

  it('has pino built in: a launcher started from it logs pino\'s JSON lines, and no chunk loads pino from node_modules', async () => {
    const dir = join(root, manifest.entry, '..');
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f), 'utf8')).not.toMatch(/from "file:[^"]*\/node_modules\/pino\//);
    const podDir = mkdtempSync(join(tmpdir(), 'kv-bundle-launcher-'));
    try {
      const child: ChildProcessByStdio<null, Readable, null> = spawn(process.execPath, [join(root, manifest.entry), 'launcher'], { env: { PATH: process.env.PATH, KV_POD_DIR: podDir, KV_DATA_DIR: podDir } as Record<string, string | undefined> as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (b: Buffer) => { out += b.toString(); });
      const exited = new Promise<number | null>((r) => child.once('exit', (code: number | null) => r(code)));
      for (let i = 0; i < 200 && !existsSync(join(podDir, 'launcher.ready')); i++) await sleep(50);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const lines = out.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.find((l) => l.msg === 'launcher listening')).toMatchObject({ level: 30, pid: child.pid, component: 'virt-launcher', podDir });
      expect(lines.find((l) => l.msg === 'launcher exiting')).toMatchObject({ level: 30, exitCode: 0 });
      expect(String(lines[0]!.time)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    } finally {
      rmSync(podDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('packageName', () => {
  it('is the npm package a specifier names', () => {
    expect(packageName('pino')).toBe('pino');
    expect(packageName('pino/lib/tools.js')).toBe('pino');
    expect(packageName('@kubernetes/client-node')).toBe('@kubernetes/client-node');
    expect(packageName('@pinojs/redact/index.js')).toBe('@pinojs/redact');
  });
});
