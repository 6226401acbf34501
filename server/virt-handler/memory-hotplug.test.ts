import { describe, expect, it } from 'vitest';
import type { VirtualMachineInstance } from '../../lib/kubevirt';
import { wantedGuestBytes, withGuestCurrent, withMemoryResult } from './memory-hotplug';

const Gi = 2 ** 30;
const marked = '2026-01-01T00:00:10.500Z';
const vmi = (opts: { maxGuest?: string; condition?: 'True' | 'False'; migration?: { startTimestamp?: string; completed?: boolean; failed?: boolean; targetNodeDomainReadyTimestamp?: string } }): VirtualMachineInstance => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'v', namespace: 'default' },
  spec: { domain: { memory: { guest: '2Gi', maxGuest: opts.maxGuest }, devices: {} } },
  status: {
    phase: 'Running',
    memory: { guestAtBoot: '1Gi', guestCurrent: '1Gi', guestRequested: '1Gi' },
    conditions: opts.condition ? [{ type: 'HotMemoryChange', status: opts.condition, lastTransitionTime: marked }] : [],
    migrationState: opts.migration,
  },
}) as VirtualMachineInstance;

describe('wantedGuestBytes', () => {
  const after = { startTimestamp: '2026-01-01T00:00:12Z', completed: true, targetNodeDomainReadyTimestamp: '2026-01-01T00:00:14Z' };
  it.each([
    ['the migration for the change completed', vmi({ maxGuest: '4Gi', condition: 'True', migration: after }), 2 * Gi],
    ['started in the same second as the mark (second precision)', vmi({ maxGuest: '4Gi', condition: 'True', migration: { ...after, startTimestamp: '2026-01-01T00:00:10Z' } }), 2 * Gi],
    ['the target\'s domain not ready yet', vmi({ maxGuest: '4Gi', condition: 'True', migration: { startTimestamp: '2026-01-01T00:00:12Z', completed: true } }), undefined],
    ['no change marked', vmi({ maxGuest: '4Gi', migration: after }), undefined],
    ['a failed change', vmi({ maxGuest: '4Gi', condition: 'False', migration: after }), undefined],
    ['still migrating', vmi({ maxGuest: '4Gi', condition: 'True', migration: { startTimestamp: '2026-01-01T00:00:12Z' } }), undefined],
    ['the migration failed', vmi({ maxGuest: '4Gi', condition: 'True', migration: { ...after, failed: true } }), undefined],
    ['an older migration (the Pod was not sized for it)', vmi({ maxGuest: '4Gi', condition: 'True', migration: { ...after, startTimestamp: '2026-01-01T00:00:02Z' } }), undefined],
    ['no maxGuest', vmi({ condition: 'True', migration: after }), undefined],
  ])('%s', (_n, v, want) => expect(wantedGuestBytes(v)).toBe(want));
});

describe('withMemoryResult', () => {
  const now = new Date('2026-01-01T00:01:00Z');
  it('success: guestRequested is the spec\'s, guestCurrent what the guest has, the condition goes', () => {
    const v = vmi({ maxGuest: '4Gi', condition: 'True' });
    const done = withMemoryResult(v.status!, v, { currentBytes: 2 * Gi }, now);
    expect(done.memory).toEqual({ guestAtBoot: '1Gi', guestCurrent: '2Gi', guestRequested: '2Gi' });
    expect(done.conditions).toEqual([]);
  });
  it('a refusal turns HotMemoryChange False with KubeVirt\'s reason and message', () => {
    const v = vmi({ maxGuest: '4Gi', condition: 'True' });
    const failed = withMemoryResult(v.status!, v, { error: 'setMemory: no room' }, now);
    expect(failed.conditions).toEqual([expect.objectContaining({ type: 'HotMemoryChange', status: 'False', reason: 'MemoryHotplugFailed', message: 'memory hotplug failed, the VM configuration is not supported' })]);
    expect(failed.memory?.guestRequested).toBe('1Gi');
  });
});

describe('withGuestCurrent', () => {
  it('follows what the guest plugged; the same object when unchanged', () => {
    const s = vmi({ maxGuest: '4Gi' }).status!;
    expect(withGuestCurrent(s, Gi)).toBe(s);
    expect(withGuestCurrent(s, 1536 * 2 ** 20).memory?.guestCurrent).toBe('1536Mi');
  });
});
