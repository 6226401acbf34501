import { describe, expect, it } from 'vitest';
import { newVMI } from '../../virt-controller/vmi/testing-builders';
import { checkMigrationTimeouts, decideConvergence, migratedBytes, toMigrationParams, toMigrationProgress, type MonitorState } from './migration-progress';

describe('toMigrationProgress', () => {
  it('turns QEMU figures into bytes and bytes/s', () => {
    const p = toMigrationProgress({ status: 'active', transferredBytes: 100, remainingBytes: 300, totalBytes: 400, mbps: 80, dirtyPagesRate: 10, expectedDowntimeMs: 30 }, new Date(0));
    expect(p).toEqual({ status: 'active', processedBytes: 100, remainingBytes: 300, totalBytes: 400, transferRate: 10_000_000, dirtyRate: 40960, expectedDowntimeMs: 30, updatedAt: '1970-01-01T00:00:00.000Z' });
  });
});

describe('toMigrationParams', () => {
  it.each([
    ['defaults: unlimited bandwidth, no capabilities', undefined, { allowAutoConverge: false, allowPostCopy: false }],
    ['0Mi means unlimited', { bandwidthPerMigration: '0Mi' }, { allowAutoConverge: false, allowPostCopy: false }],
    ['a bandwidth limit in bytes/s', { bandwidthPerMigration: '1Mi' }, { allowAutoConverge: false, allowPostCopy: false, bandwidthBytesPerSec: 1048576 }],
    ['auto-converge, post-copy and downtime', { allowAutoConverge: true, allowPostCopy: true, maxDowntimeMs: 50 }, { allowAutoConverge: true, allowPostCopy: true, downtimeMs: 50 }],
  ])('%s', (_n, config, want) => {
    expect(toMigrationParams(config)).toEqual(want);
  });
});

describe('checkMigrationTimeouts', () => {
  const GiB = 2 ** 30;
  const start = (): MonitorState => ({ startedAt: 0, bestAt: 0 });

  it('gives up after completionTimeoutPerGiB × GiB seconds', () => {
    const m = start();
    const cfg = { completionTimeoutPerGiB: 10, progressTimeout: 0 };
    expect(checkMigrationTimeouts(m, { status: 'active', remainingBytes: 5 }, cfg, GiB / 2, 4_000)).toBeUndefined();
    expect(checkMigrationTimeouts(m, { status: 'active', remainingBytes: 4 }, cfg, GiB / 2, 6_000)).toMatch(/not completed after 5 sec/);
  });

  it('gives up when remaining bytes stop going down for progressTimeout seconds', () => {
    const m = start();
    const cfg = { completionTimeoutPerGiB: 0, progressTimeout: 3 };
    expect(checkMigrationTimeouts(m, { status: 'active', remainingBytes: 100 }, cfg, GiB, 1_000)).toBeUndefined();
    expect(checkMigrationTimeouts(m, { status: 'active', remainingBytes: 90 }, cfg, GiB, 2_000)).toBeUndefined();
    expect(checkMigrationTimeouts(m, { status: 'active', remainingBytes: 95 }, cfg, GiB, 4_500)).toBeUndefined();
    expect(checkMigrationTimeouts(m, { status: 'active', remainingBytes: 95 }, cfg, GiB, 5_500)).toMatch(/stuck for 4 sec/);
  });

  it('switches to post-copy instead of aborting at the completion timeout when the policy allows post-copy', () => {
    const m = start();
    const cfg = { completionTimeoutPerGiB: 10, progressTimeout: 0, allowPostCopy: true };
    expect(decideConvergence(m, { status: 'active', remainingBytes: 5 }, cfg, GiB / 2, 4_000)).toBeUndefined();
    expect(decideConvergence(m, { status: 'active', remainingBytes: 4 }, cfg, GiB / 2, 6_000)).toEqual({ action: 'postcopy' });
    expect(checkMigrationTimeouts(start(), { status: 'active', remainingBytes: 4 }, cfg, GiB / 2, 6_000)).toBeUndefined();
  });

  it('still aborts a stuck migration that allows post-copy (post-copy would not help a broken stream)', () => {
    const m = start();
    const cfg = { completionTimeoutPerGiB: 0, progressTimeout: 3, allowPostCopy: true };
    expect(decideConvergence(m, { status: 'active', remainingBytes: 100 }, cfg, GiB, 1_000)).toBeUndefined();
    expect(decideConvergence(m, { status: 'active', remainingBytes: 100 }, cfg, GiB, 4_500)).toMatchObject({ action: 'abort', reason: expect.stringMatching(/stuck for 4 sec/) });
  });

  it('uses guest memory as the migrated size', () => {
    expect(migratedBytes(newVMI((v) => { v.spec.domain.memory = { guest: '256Mi' }; }))).toBe(256 * 2 ** 20);
  });
});
