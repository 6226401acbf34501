import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEntry, freshBundleEntry, MANIFEST_FILE } from '../../bin/kv-bundle.mjs';
import { log } from '../log';
import { buildKvBundle, type BundleManifest } from './build-bundle';
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
});
