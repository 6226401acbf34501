import { describe, expect, it } from 'vitest';
import type { VirtualMachineInstanceMigration } from '../kubevirt';
import { computeMigrationProgress, migrationsOfVMI, migrationTargets } from './migration-progress';

const vmim = (phase: string, extra: Partial<VirtualMachineInstanceMigration['status']> = {}, name = 'm1', ts = '2026-01-01T00:00:00Z'): VirtualMachineInstanceMigration => ({
  metadata: { name, namespace: 'default', uid: `uid-${name}`, creationTimestamp: ts },
  spec: { vmiName: 'vm1' },
  status: { phase: phase as never, ...extra },
});

describe('computeMigrationProgress', () => {
  it.each([
    ['Pending', 5, 'Waiting to start'],
    ['Scheduling', 10, 'Finding a target node'],
    ['TargetReady', 40, 'Target ready'],
    ['Running', 50, 'Copying memory'],
    ['Succeeded', 100, 'Migrated'],
  ])('%s without metrics: %i%% "%s"', (phase, percent, label) => {
    expect(computeMigrationProgress(vmim(phase))).toMatchObject({ percent, label, measured: false });
  });

  it('fills the Running span from processed / (processed + remaining), with an ETA', () => {
    const p = computeMigrationProgress(vmim('Running'), undefined, { processedBytes: 300, remainingBytes: 100, transferRate: 50 });
    expect(p).toMatchObject({ percent: 86, measured: true, etaSeconds: 2 });
  });

  it('reads the progress virt-handler publishes on the VMIM (bytes, rate, downtime)', () => {
    const m = vmim('Running');
    m.metadata.annotations = { 'kubevirt-ts.io/migration-progress': JSON.stringify({ status: 'active', processedBytes: 100, remainingBytes: 100, transferRate: 25 }) };
    expect(computeMigrationProgress(m)).toMatchObject({ percent: 74, measured: true, etaSeconds: 4 });
    const done = vmim('Succeeded');
    done.metadata.annotations = { 'kubevirt-ts.io/migration-progress': JSON.stringify({ status: 'completed', downtimeMs: 37 }) };
    expect(computeMigrationProgress(done).downtimeMs).toBe(37);
  });

  it('reports the result: duration, downtime when reported, and the VMI state of this migration only', () => {
    const state = { migrationUid: 'uid-m1', startTimestamp: '2026-01-01T00:00:00Z', endTimestamp: '2026-01-01T00:00:02.500Z', targetNode: 'node-2', downtimeMs: 42 } as never;
    const p = computeMigrationProgress(vmim('Succeeded'), state);
    expect(p).toMatchObject({ done: true, succeeded: true, durationMs: 2500, downtimeMs: 42, targetNode: 'node-2' });
    expect(computeMigrationProgress(vmim('Succeeded', {}, 'other'), state).targetNode).toBeUndefined();
  });

  it('says why it failed, and that a cancel is a cancel', () => {
    expect(computeMigrationProgress(vmim('Failed', { migrationState: { failureReason: 'Target pod is down' } })).failureReason).toBe('Target pod is down');
    expect(computeMigrationProgress(vmim('Failed', { migrationState: { abortStatus: 'Succeeded' } })).label).toBe('Cancelled');
  });
});

describe('migration helpers', () => {
  it('lists one VMI\'s migrations newest first', () => {
    const list = [vmim('Succeeded', {}, 'a', '2026-01-01T00:00:00Z'), vmim('Failed', {}, 'b', '2026-01-02T00:00:00Z'), { ...vmim('Running', {}, 'c'), spec: { vmiName: 'other' } }];
    expect(migrationsOfVMI(list, 'default', 'vm1').map((m) => m.metadata.name)).toEqual(['b', 'a']);
  });

  it('offers only Ready, schedulable nodes other than the current one', () => {
    const ready = { conditions: [{ type: 'Ready', status: 'True' }] };
    const nodes = [
      { metadata: { name: 'node-1' }, status: ready },
      { metadata: { name: 'node-2' }, status: ready },
      { metadata: { name: 'node-3' }, spec: { unschedulable: true }, status: ready },
      { metadata: { name: 'node-4' }, status: { conditions: [{ type: 'Ready', status: 'False' }] } },
    ];
    expect(migrationTargets(nodes, 'node-1')).toEqual(['node-2']);
  });
});
