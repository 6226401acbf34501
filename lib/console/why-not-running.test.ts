import { describe, expect, it } from 'vitest';
import { newVM, newVMI, withCondition, withPhase, withRunStrategy, withStartFailures } from '../kubevirt/test-builders';
import { describeCondition } from './condition-text';
import { explainWhyNotRunning, type KubeEvent } from './why-not-running';

const warning = (reason: string, message: string, ts: string): KubeEvent => ({
  metadata: { name: reason, creationTimestamp: ts }, type: 'Warning', reason, message, lastTimestamp: ts, involvedObject: { kind: 'VirtualMachineInstance', name: 'vm1' },
});

describe('explainWhyNotRunning', () => {
  it('is empty for a running VM', () => {
    expect(explainWhyNotRunning({ vm: newVM(), vmi: newVMI(withPhase('Running')), events: [], status: 'Running' })).toEqual([]);
  });

  it('says a halted VM is stopped on purpose and how to start it', () => {
    const [c] = explainWhyNotRunning({ vm: newVM(withRunStrategy('Halted')), events: [], status: 'Stopped' });
    expect(c).toMatchObject({ severity: 'info', title: 'It is stopped, as asked.', fix: 'Press Start.' });
  });

  it('puts the scheduler message first for an unschedulable VM, then the newest warnings', () => {
    const vmi = newVMI(withPhase('Pending'), withCondition({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/2 nodes are available: 2 node(s) were unschedulable.' }));
    const events = [warning('Old', 'old', '2026-01-01T00:00:00Z'), warning('FailedScheduling', 'no nodes', '2026-01-01T00:01:00Z')];
    const causes = explainWhyNotRunning({ vm: newVM(), vmi, events, status: 'ErrorUnschedulable' });
    expect(causes.map((c) => c.title)).toEqual(['No node can take it.', 'VirtualMachineInstance: FailedScheduling', 'VirtualMachineInstance: Old']);
    expect(causes[0].detail).toContain('were unschedulable');
  });

  it('reports a crash loop and a failed launcher container', () => {
    const pod = { metadata: { name: 'virt-launcher-vm1' }, status: { phase: 'Failed', containerStatuses: [{ name: 'compute', state: { terminated: { exitCode: 1, message: 'qemu: could not open disk' } } }] } };
    const titles = explainWhyNotRunning({ vm: newVM(withStartFailures(3)), pod, events: [], status: 'CrashLoopBackOff' }).map((c) => c.title);
    expect(titles).toEqual(['It failed to start 3 times in a row.', 'The launcher container "compute" exited with code 1.', 'The launcher Pod failed.']);
  });
});

describe('describeCondition', () => {
  it.each([
    [{ type: 'Ready', status: 'False', reason: 'PodNotExists' }, 'The guest is not ready yet. Because its launcher Pod does not exist yet.'],
    [{ type: 'Paused', status: 'True', reason: 'PausedByUser' }, 'The guest is paused: its CPUs are stopped, memory is kept. Because a user paused it.'],
    [{ type: 'LiveMigratable', status: 'False', reason: 'DisksNotLiveMigratable', message: 'PVC is not shared' }, 'It cannot be live-migrated. Because a disk cannot be shared with another node. PVC is not shared'],
    [{ type: 'Custom', status: 'True' }, 'Custom is True.'],
  ] as const)('%j', (c, text) => expect(describeCondition(c)).toBe(text));
});
