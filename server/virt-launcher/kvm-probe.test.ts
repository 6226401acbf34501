import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectAccel, PROBE_FILE, runProbeGuest } from './kvm-probe';

const dir = mkdtempSync(join(tmpdir(), 'kv-probe-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('kvm probe', () => {
  it('the probe firmware reaches long mode under TCG (so a KVM failure means KVM, not the firmware)', async () => {
    await expect(runProbeGuest('tcg', 5000)).resolves.toBe(true);
  });

  it.each([['tcg'], ['kvm']] as const)('KV_ACCEL=%s overrides the probe', async (accel) => {
    await expect(detectAccel({ env: { KV_ACCEL: accel } })).resolves.toMatchObject({ accel, reason: 'KV_ACCEL' });
  });

  it('uses the cached result of the node', async () => {
    const cacheDir = join(dir, 'cached');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(cacheDir);
    writeFileSync(join(cacheDir, PROBE_FILE), JSON.stringify({ accel: 'kvm', kvm: true, reason: 'cached', durationMs: 1, probedAt: 'x' }));
    await expect(detectAccel({ cacheDir, env: {} })).resolves.toMatchObject({ accel: 'kvm', reason: 'cached' });
  });

  it.each([
    ['this boot\'s host result is reused by a new node (and copied into its cache)', true],
    ['a host result from an earlier boot is probed again', false],
  ])('%s', async (_label, sameBoot) => {
    const cacheDir = join(dir, `host-${sameBoot}`);
    const hostCacheFile = join(dir, `host-${sameBoot}.json`);
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    // a result no probe here can produce, so reuse is visible
    writeFileSync(hostCacheFile, JSON.stringify({ accel: 'kvm', kvm: true, reason: 'from the host cache', durationMs: 1, probedAt: 'x', bootId: sameBoot ? bootId : 'another-boot' }));
    const result = await detectAccel({ cacheDir, hostCacheFile, env: {} });
    expect(result.reason === 'from the host cache').toBe(sameBoot);
    expect(JSON.parse(readFileSync(join(cacheDir, PROBE_FILE), 'utf8')).reason === 'from the host cache').toBe(sameBoot);
    if (!sameBoot) expect(JSON.parse(readFileSync(hostCacheFile, 'utf8'))).toMatchObject({ accel: result.accel, bootId });
  });

  // On the development machines /dev/kvm exists but guests hang; set KV_TEST_KVM_WORKS=1 where KVM is real.
  it('detects whether KVM really runs a guest and caches the answer', async () => {
    const cacheDir = join(dir, 'fresh');
    const started = Date.now();
    const result = await detectAccel({ cacheDir, env: {} });
    expect(result.accel).toBe(process.env.KV_TEST_KVM_WORKS === '1' ? 'kvm' : 'tcg');
    expect(Date.now() - started).toBeLessThan(4000);
    expect(JSON.parse(readFileSync(join(cacheDir, PROBE_FILE), 'utf8')).accel).toBe('tcg');
  });
});
