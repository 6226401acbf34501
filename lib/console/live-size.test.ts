import { describe, expect, it } from 'vitest';
import type { Condition } from '../kubevirt/meta';
import type { VirtualMachine } from '../kubevirt/vm-types';
import type { VirtualMachineInstance } from '../kubevirt/vmi-types';
import { newVM, newVMI } from '../kubevirt/test-builders';
import { liveSizePatch, liveSizeView, type AppliedChange } from './live-size';

/** A VM asking for `sockets` and `guest`; its VMI (Running) started with maxSockets 4 and maxGuest 4Gi. */
function vmAsking(sockets: number, guest = '1Gi', conditions: Condition[] = []): VirtualMachine {
  return newVM((vm) => {
    vm.spec.template.spec.domain.cpu = { sockets };
    vm.spec.template.spec.domain.memory = { guest };
    vm.status = { conditions };
  });
}
function runningVMI(o: { sockets?: number; specSockets?: number; guest?: string; atBoot?: string; maxSockets?: number; maxGuest?: string; conditions?: Condition[]; migrating?: boolean; phase?: 'Running' | 'Scheduling' } = {}): VirtualMachineInstance {
  return newVMI((vmi) => {
    vmi.spec.domain.cpu = { sockets: o.specSockets ?? o.sockets ?? 1, cores: 1, threads: 1, ...(o.maxSockets === 0 ? {} : { maxSockets: o.maxSockets ?? 4 }) };
    vmi.spec.domain.memory = { guest: o.guest ?? '1Gi', ...(o.maxGuest === '' ? {} : { maxGuest: o.maxGuest ?? '4Gi' }) };
    vmi.status = {
      phase: o.phase ?? 'Running',
      conditions: o.conditions ?? [],
      currentCPUTopology: o.sockets === undefined ? undefined : { sockets: o.sockets, cores: 1, threads: 1 },
      memory: { guestAtBoot: o.atBoot ?? '1Gi', guestCurrent: o.guest ?? '1Gi', guestRequested: o.guest ?? '1Gi' },
      ...(o.migrating ? { migrationState: { startTimestamp: '2026-11-26T06:00:00Z' } } : {}),
    };
  });
}
const restartRequired: Condition = { type: 'RestartRequired', status: 'True', reason: 'RestartRequired', message: 'a non-live-updatable field was changed in the template spec' };

describe("the VM page's Size panel", () => {
  const cases: { name: string; vm: VirtualMachine; vmi?: VirtualMachineInstance; applied?: AppliedChange; want: Record<string, unknown> }[] = [
    { name: 'stopped: the VM spec, no live limits', vm: vmAsking(2, '2Gi'), vmi: undefined,
      want: { state: 'stopped', vcpus: 2, cpuText: '2 vCPUs', memoryText: '2 GiB' } },
    { name: 'a VMI still scheduling counts as stopped', vm: vmAsking(1), vmi: runningVMI({ phase: 'Scheduling' }),
      want: { state: 'stopped' } },
    { name: 'running as asked: the limits in words', vm: vmAsking(1), vmi: runningVMI({ sockets: 1 }),
      want: { state: 'steady', vcpus: 1, cpuText: '1 vCPU (up to 4 live)', memoryText: '1 GiB (up to 4 GiB live)', maxSockets: 4, maxGuestBytes: 4 * 2 ** 30 } },
    { name: 'asked 2, the VMI still reports 1: in progress', vm: vmAsking(2), vmi: runningVMI({ sockets: 1, specSockets: 2 }), applied: { sockets: 2 },
      want: { state: 'in-progress', stateText: 'In progress', detail: '2 vCPUs asked', vcpus: 1 } },
    { name: 'the VMI reports 2 after the user applied it: applied live', vm: vmAsking(2), vmi: runningVMI({ sockets: 2 }), applied: { sockets: 2 },
      want: { state: 'applied', stateText: 'Applied live', vcpus: 2, cpuText: '2 vCPUs (up to 4 live)' } },
    { name: 'the guest has more memory than it booted with: applied live even without a click here', vm: vmAsking(1, '2Gi'), vmi: runningVMI({ sockets: 1, guest: '2Gi' }),
      want: { state: 'applied', memoryBytes: 2 * 2 ** 30, memoryText: '2 GiB (up to 4 GiB live)' } },
    { name: 'RestartRequired wins, with its message', vm: vmAsking(5, '1Gi', [restartRequired]), vmi: runningVMI({ sockets: 2 }), applied: { sockets: 5 },
      want: { state: 'restart', stateText: 'Needs a restart', detail: 'a non-live-updatable field was changed in the template spec', why: '5 sockets asked, this guest goes up to 4 live', vcpus: 2 } },
    { name: 'fewer sockets: a restart, said why', vm: vmAsking(1, '1Gi', [restartRequired]), vmi: runningVMI({ sockets: 2 }),
      want: { state: 'restart', why: 'removing vCPUs needs a restart' } },
    { name: 'a guest started without maxSockets: a restart, said why', vm: vmAsking(2, '1Gi', [restartRequired]), vmi: runningVMI({ sockets: 1, maxSockets: 0 }),
      want: { state: 'restart', why: 'this guest was started without room for more vCPUs' } },
    { name: 'a restart for something else (Stage, another field): only the message', vm: vmAsking(1, '1Gi', [restartRequired]), vmi: runningVMI({ sockets: 1 }),
      want: { state: 'restart', why: undefined } },
    { name: 'a RestartRequired that is False does not count', vm: vmAsking(1, '1Gi', [{ ...restartRequired, status: 'False' }]), vmi: runningVMI({ sockets: 1 }),
      want: { state: 'steady' } },
    { name: 'HotMemoryChange True: in progress', vm: vmAsking(1, '2Gi'), vmi: runningVMI({ sockets: 1, conditions: [{ type: 'HotMemoryChange', status: 'True' }] }),
      want: { state: 'in-progress', memoryBytes: 2 ** 30 } },
    { name: 'a workload-update migration running: in progress, said so', vm: vmAsking(1, '2Gi'), vmi: runningVMI({ sockets: 1, migrating: true }),
      want: { state: 'in-progress', detail: 'the VM moves by live migration to a launcher sized for the change' } },
    { name: 'HotMemoryChange False: not applied, with the reason', vm: vmAsking(1, '2Gi'), vmi: runningVMI({ sockets: 1, conditions: [{ type: 'HotMemoryChange', status: 'False', reason: 'MemoryHotplugFailed', message: 'qom-set refused' }] }),
      want: { state: 'failed', stateText: 'Not applied', detail: 'qom-set refused' } },
    { name: 'a refused hot-add: not applied, with the launcher\'s message', vm: vmAsking(2), vmi: runningVMI({ sockets: 1, specSockets: 2, conditions: [{ type: 'HotVCPUChange', status: 'True', reason: 'HotVCPUChangeFailed', message: 'no free slot' }] }),
      want: { state: 'failed', detail: 'no free slot' } },
    { name: 'a VMI without maxSockets or maxGuest: changes need a restart', vm: vmAsking(1, '512Mi'), vmi: runningVMI({ sockets: 1, guest: '512Mi', atBoot: '512Mi', maxSockets: 0, maxGuest: '' }),
      want: { state: 'steady', cpuText: '1 vCPU (more needs a restart)', memoryText: '512 MiB (more needs a restart)' } },
    { name: 'at maxSockets already: no more live', vm: vmAsking(4), vmi: runningVMI({ sockets: 4 }),
      want: { cpuText: '4 vCPUs (more needs a restart)' } },
    { name: 'no currentCPUTopology yet: the VMI spec', vm: vmAsking(3), vmi: runningVMI({ specSockets: 3 }),
      want: { vcpus: 3, state: 'steady' } },
  ];
  it.each(cases)('$name', ({ vm, vmi, applied, want }) => {
    expect(liveSizeView(vm, vmi, applied)).toMatchObject(want);
  });

  it('counts vCPUs as sockets × cores × threads and raises by whole sockets', () => {
    const vm = newVM((v) => { v.spec.template.spec.domain.cpu = { sockets: 2, cores: 2, threads: 2 }; });
    const vmi = newVMI((v) => { v.spec.domain.cpu = { sockets: 2, cores: 2, threads: 2, maxSockets: 8 }; v.status = { phase: 'Running', currentCPUTopology: { sockets: 2, cores: 2, threads: 2 } }; });
    expect(liveSizeView(vm, vmi)).toMatchObject({ vcpus: 8, perSocket: 4, wantedSockets: 2, cpuText: '8 vCPUs (up to 32 live)' });
  });

  it('names the instance type a VM takes its size from', () => {
    const vm = newVM((v) => { v.spec.instancetype = { kind: 'VirtualMachineClusterInstancetype', name: 'u1.small' }; });
    expect(liveSizeView(vm, undefined)).toMatchObject({ instancetype: 'u1.small', vcpus: 1 });
  });
});

describe("the Size panel's patch", () => {
  const vm = vmAsking(1, '1Gi');
  it.each([
    { sockets: '2', memory: '1Gi', want: { patch: { spec: { template: { spec: { domain: { cpu: { sockets: 2 } } } } } } } },
    { sockets: '1', memory: '2Gi', want: { patch: { spec: { template: { spec: { domain: { memory: { guest: '2Gi' } } } } } } } },
    { sockets: ' 3 ', memory: '1536Mi', want: { patch: { spec: { template: { spec: { domain: { cpu: { sockets: 3 }, memory: { guest: '1536Mi' } } } } } } } },
    { sockets: '1', memory: '1Gi', want: {} },
    { sockets: '1', memory: '', want: {} },
    { sockets: '0', memory: '1Gi', want: { error: 'Sockets must be a whole number of at least 1, got "0"' } },
    { sockets: '1.5', memory: '1Gi', want: { error: 'Sockets must be a whole number of at least 1, got "1.5"' } },
    { sockets: '1', memory: 'lots', want: { error: 'Memory must be a quantity such as 2Gi, got "lots"' } },
  ])('sockets "$sockets", memory "$memory"', ({ sockets, memory, want }) => {
    expect(liveSizePatch(vm, { sockets, memory })).toEqual(want);
  });
});
