import { describe, expect, it } from 'vitest';
import type { VirtualMachineInstance } from '../../lib/kubevirt';
import { wantedSockets, withCPUResult } from './cpu-hotplug';

const vmi = (cpu: { sockets?: number; cores?: number; maxSockets?: number }, current?: number): VirtualMachineInstance => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'v', namespace: 'default' },
  spec: { domain: { cpu, devices: {} } },
  status: { phase: 'Running', currentCPUTopology: current === undefined ? undefined : { sockets: current, cores: cpu.cores } },
}) as VirtualMachineInstance;

describe('wantedSockets', () => {
  it.each([
    ['spec above current', vmi({ sockets: 2, maxSockets: 4 }, 1), 2],
    ['already there', vmi({ sockets: 2, maxSockets: 4 }, 2), undefined],
    ['started without maxSockets', vmi({ sockets: 2 }, 1), undefined],
    ['no sockets in spec', vmi({ maxSockets: 4 }, 1), undefined],
    ['spec below current (the launcher refuses)', vmi({ sockets: 1, maxSockets: 4 }, 2), 1],
    ['not while a migration runs', { ...vmi({ sockets: 2, maxSockets: 4 }, 1), status: { phase: 'Running', currentCPUTopology: { sockets: 1 }, migrationState: { startTimestamp: '2026-01-01T00:00:00Z' } } } as VirtualMachineInstance, undefined],
  ])('%s', (_n, v, want) => expect(wantedSockets(v)).toBe(want));
});

describe('withCPUResult', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it('a refusal sets HotVCPUChange with the reason; success records the topology and drops the condition', () => {
    const v = vmi({ sockets: 2, cores: 2, maxSockets: 4 }, 1);
    const failed = withCPUResult(v.status!, v, { error: 'setCPUs: no room' }, now);
    expect(failed.conditions).toEqual([expect.objectContaining({ type: 'HotVCPUChange', status: 'True', reason: 'HotVCPUChangeFailed', message: 'setCPUs: no room' })]);
    expect(failed.currentCPUTopology?.sockets).toBe(1);
    const done = withCPUResult(failed, v, { sockets: 2 }, now);
    expect(done.currentCPUTopology).toStrictEqual({ sockets: 2, cores: 2 });
    expect(done.conditions).toEqual([]);
  });
});
