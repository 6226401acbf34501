import { describe, expect, it } from 'vitest';
import type { VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';
import { newVM } from '../../../lib/kubevirt/test-builders';
import { applyLiveUpdate, memoryMigrationDue, planLiveUpdate, withHotplugRoom } from './live-update';
import { renderVMI } from './render-vmi';

const vmWith = (sockets: number, memory = '128Mi'): VirtualMachine => {
  const vm = newVM();
  vm.spec.template.spec.domain.cpu = { sockets };
  vm.spec.template.spec.domain.memory = { guest: memory };
  return vm;
};
const started = (vm: VirtualMachine): VirtualMachineInstance => withHotplugRoom(renderVMI(vm, { paused: false }));

describe('withHotplugRoom', () => {
  it('gives a VMI started under LiveUpdate 4× its sockets', () => {
    expect(started(vmWith(2)).spec.domain.cpu).toEqual({ sockets: 2, maxSockets: 8 });
  });
  it('follows the KubeVirt CR\'s liveUpdateConfiguration', () => {
    expect(withHotplugRoom(renderVMI(vmWith(2), { paused: false }), { maxCpuSockets: 3 }).spec.domain.cpu).toEqual({ sockets: 2, maxSockets: 3 });
  });
  it('leaves a VMI without a socket count alone', () => {
    const vmi = renderVMI(newVM(), { paused: false });
    expect(withHotplugRoom(vmi)).toBe(vmi);
  });
});

describe('withHotplugRoom: memory', () => {
  it('gives a VMI with 1Gi of guest memory a maxGuest of 4Gi', () => {
    expect(started(vmWith(1, '1Gi')).spec.domain.memory).toEqual({ guest: '1Gi', maxGuest: '4Gi' });
  });
  it('follows the KubeVirt CR\'s maxGuest', () => {
    expect(withHotplugRoom(renderVMI(vmWith(1, '1Gi'), { paused: false }), { maxGuest: '2Gi' }).spec.domain.memory?.maxGuest).toBe('2Gi');
  });
  it('gives none under 1Gi (KubeVirt\'s minimum)', () => {
    expect(started(vmWith(1)).spec.domain.memory).toEqual({ guest: '128Mi' });
  });
});

describe('planLiveUpdate: memory', () => {
  const atStart = { spec: vmWith(1, '1Gi').spec };
  const running = (): VirtualMachineInstance => {
    const vmi = started(vmWith(1, '1Gi'));
    vmi.status = { memory: { guestAtBoot: '1Gi', guestCurrent: '1Gi', guestRequested: '1Gi' } };
    return vmi;
  };
  it('1Gi → 2Gi is live', () => {
    expect(planLiveUpdate(vmWith(1, '2Gi').spec, atStart, running(), true)).toEqual({ kind: 'hotplug', memory: { guest: '2Gi' } });
  });
  it('sockets and memory together', () => {
    expect(planLiveUpdate(vmWith(2, '2Gi').spec, atStart, running(), true)).toEqual({ kind: 'hotplug', sockets: 2, memory: { guest: '2Gi' } });
  });
  it('past maxGuest needs a restart', () => {
    expect(planLiveUpdate(vmWith(1, '8Gi').spec, atStart, running(), true)).toEqual({ kind: 'restart', message: 'memory hotplug not supported, Guest memory is greater than the configured maxGuest memory' });
  });
  it('waits while the VMI migrates', () => {
    const vmi = running();
    vmi.status!.migrationState = { startTimestamp: '2026-01-01T00:00:00Z' } as NonNullable<NonNullable<VirtualMachineInstance['status']>['migrationState']>;
    expect(planLiveUpdate(vmWith(1, '2Gi').spec, atStart, vmi, true)).toEqual({ kind: 'wait', message: 'memory hotplug is not allowed while VMI is migrating' });
  });
  it('Stage: a memory change needs a restart', () => {
    expect(planLiveUpdate(vmWith(1, '2Gi').spec, atStart, running(), false)).toEqual({ kind: 'restart', message: 'a non-live-updatable field was changed in the template spec' });
  });
});

describe('planLiveUpdate', () => {
  const atStart = { spec: vmWith(1).spec };
  const vmi = started(vmWith(1));
  it.each([
    ['Stage: any template change needs a restart', vmWith(2), false, { kind: 'restart', message: 'a non-live-updatable field was changed in the template spec' }],
    ['Stage: no change, no restart', vmWith(1), false, { kind: 'none' }],
    ['LiveUpdate: sockets 1→2 are hot-plugged', vmWith(2), true, { kind: 'hotplug', sockets: 2 }],
    ['LiveUpdate: memory of a VMI without maxGuest (under 1Gi) needs a restart', vmWith(1, '256Mi'), true, { kind: 'restart', message: 'memory updated in template spec. Memory-hotplug is not available for this VM configuration' }],
    ['LiveUpdate: another change needs a restart', { ...vmWith(1), spec: { ...vmWith(1).spec, template: { spec: { ...vmWith(1).spec.template.spec, hostname: 'x' } } } }, true, { kind: 'restart', message: 'a non-live-updatable field was changed in the template spec' }],
    ['LiveUpdate: past maxSockets needs a restart', vmWith(5), true, { kind: 'restart', message: "CPU sockets updated in template spec to a value higher than what's available" }],
  ])('%s', (_n, current, live, want) => expect(planLiveUpdate(current.spec, atStart, vmi, live)).toEqual(want));

  it('does not nag when the start spec is unknown', () => {
    expect(planLiveUpdate(vmWith(3).spec, undefined, vmi, true)).toEqual({ kind: 'none' });
  });
});

describe('applyLiveUpdate: memory', () => {
  it('patches guest memory and requests, marks HotMemoryChange and creates the workload-update migration', async () => {
    const calls: unknown[] = [];
    const clients = {
      vmis: {
        mergePatch: async (_ns: string, _n: string, p: object) => { calls.push(['spec', p]); return {}; },
        mergePatchStatus: async (_ns: string, _n: string, p: object) => { calls.push(['status', p]); return {}; },
      },
      migrations: { create: async (_ns: string, body: object) => { calls.push(['migration', body]); return body; } },
    };
    const vmi = started(vmWith(1, '1Gi'));
    const now = new Date('2026-01-01T00:00:00Z');
    await expect(applyLiveUpdate(clients, vmi, { kind: 'hotplug', memory: { guest: '2Gi', requestsMemory: '2Gi' } }, now)).resolves.toBe(false);
    expect(calls).toEqual([
      ['spec', { spec: { domain: { memory: { guest: '2Gi' }, resources: { requests: { memory: '2Gi' } } } } }],
      ['status', { status: { conditions: [{ type: 'HotMemoryChange', status: 'True', lastTransitionTime: now.toISOString(), lastProbeTime: null }] } }],
      ['migration', {
        apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstanceMigration',
        metadata: { generateName: 'kubevirt-workload-update-', namespace: vmi.metadata.namespace, annotations: { 'kubevirt.io/workloadUpdateMigration': '' } },
        spec: { vmiName: vmi.metadata.name },
      }],
    ]);
  });
  it('a wait writes nothing and asks for no restart', async () => {
    const vmis = { mergePatch: async () => { throw new Error('no write expected'); } };
    await expect(applyLiveUpdate(vmis, started(vmWith(1, '1Gi')), { kind: 'wait', message: 'x' })).resolves.toBe(false);
  });
});

describe('applyLiveUpdate', () => {
  it('patches only the socket count into the VMI and asks for no restart', async () => {
    const patches: unknown[] = [];
    const vmis = { mergePatch: async (ns: string, name: string, p: object) => { patches.push([ns, name, p]); return {}; } };
    const vmi = started(vmWith(1));
    await expect(applyLiveUpdate(vmis, vmi, { kind: 'hotplug', sockets: 3 })).resolves.toBe(false);
    expect(patches).toEqual([[vmi.metadata.namespace, vmi.metadata.name, { spec: { domain: { cpu: { sockets: 3 } } } }]]);
    await expect(applyLiveUpdate(vmis, vmi, { kind: 'restart', message: 'x' })).resolves.toBe('x');
    expect(patches).toHaveLength(1);
  });
});

describe('memoryMigrationDue (a lost or failed migration is created again)', () => {
  const mark = '2026-01-01T00:00:10.400Z';
  const marked = (status: Partial<NonNullable<VirtualMachineInstance['status']>> = {}): VirtualMachineInstance => {
    const vmi = started(vmWith(1, '1Gi'));
    vmi.status = { conditions: [{ type: 'HotMemoryChange', status: 'True', lastTransitionTime: mark }], ...status };
    return vmi;
  };
  const migration = (created: string, phase?: string, vmiName = started(vmWith(1, '1Gi')).metadata.name) => ({ metadata: { creationTimestamp: created }, spec: { vmiName }, status: { phase } });
  it.each([
    ['marked, no migration', marked(), [], true],
    ['a migration created since the mark', marked(), [migration('2026-01-01T00:00:10Z', 'Running')], false],
    ['only a failed one since', marked(), [migration('2026-01-01T00:00:11Z', 'Failed')], true],
    ['only an older one', marked(), [migration('2026-01-01T00:00:02Z', 'Succeeded')], true],
    ['another VMI\'s', marked(), [migration('2026-01-01T00:00:11Z', 'Running', 'other')], true],
    ['migrating now', marked({ migrationState: { startTimestamp: '2026-01-01T00:00:11Z' } }), [], false],
    ['completed since the mark (the handler plugs next)', marked({ migrationState: { startTimestamp: '2026-01-01T00:00:11Z', endTimestamp: '2026-01-01T00:00:20Z', completed: true } }), [], false],
    ['nothing marked', started(vmWith(1, '1Gi')), [], false],
  ])('%s', (_n, vmi, migrations, want) => expect(memoryMigrationDue(vmi, migrations)).toBe(want));
});
