import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLE_ROOT, freshBundleEntry, MANIFEST_FILE } from '../../bin/kv-bundle.mjs';

/**
 * bin/kv.mjs: `kv up` lives as long as its cluster, so it never runs through tsx (tsx's esbuild
 * service and the transpiled sources: ~50 MiB for the cluster's life, docs/performance.md "Footprint").
 * Without a fresh bundle it builds one first, in a child, and runs from it.
 */
describe('kv up without a fresh bundle', () => {
  it('builds the bundle before it starts, and prints only its own output', () => {
    const kv = join(process.cwd(), 'bin', 'kv.mjs');
    execFileSync(process.execPath, [kv, 'bundle'], { stdio: 'ignore' }); // a fresh one to make stale
    const manifestFile = join(BUNDLE_ROOT, MANIFEST_FILE);
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { inputs: Record<string, unknown> };
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, inputs: { ...manifest.inputs, 'server/up/main.ts': [1, 1] } })); // as if main.ts was edited
    expect(freshBundleEntry()).toBeUndefined();
    const out = execFileSync(process.execPath, [kv, 'up', '--help'], { encoding: 'utf8', env: { ...process.env, KV_BUNDLE: '' } });
    expect(out.split('\n')[0]).toBe('start a whole cluster on this machine (API server, scheduler, nodes, controllers, console)');
    expect(out).not.toContain('kv bundle built');
    expect(freshBundleEntry()).toBeDefined();
  }, 60_000);
});
