import { describe, expect, it } from 'vitest';
import type { VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';
import { newVM } from '../../../lib/kubevirt/test-builders';
import { applyLiveUpdate, planLiveUpdate, withHotplugRoom } from './live-update';
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

describe('planLiveUpdate', () => {
  const atStart = { spec: vmWith(1).spec };
  const vmi = started(vmWith(1));
  it.each([
    ['Stage: any template change needs a restart', vmWith(2), false, { kind: 'restart', message: 'vmRolloutStrategy is Stage' }],
    ['Stage: no change, no restart', vmWith(1), false, { kind: 'none' }],
    ['LiveUpdate: sockets 1→2 are hot-plugged', vmWith(2), true, { kind: 'hotplug', sockets: 2 }],
    ['LiveUpdate: memory still needs a restart', vmWith(1, '256Mi'), true, { kind: 'restart', message: 'a change other than CPU sockets needs a restart' }],
    ['LiveUpdate: past maxSockets needs a restart', vmWith(5), true, { kind: 'restart', message: "the number of sockets (5) exceeds the VMI's maxSockets (4)" }],
  ])('%s', (_n, current, live, want) => expect(planLiveUpdate(current.spec, atStart, vmi, live)).toEqual(want));

  it('does not nag when the start spec is unknown', () => {
    expect(planLiveUpdate(vmWith(3).spec, undefined, vmi, true)).toEqual({ kind: 'none' });
  });
});

describe('applyLiveUpdate', () => {
  it('patches only the socket count into the VMI and asks for no restart', async () => {
    const patches: unknown[] = [];
    const vmis = { mergePatch: async (ns: string, name: string, p: object) => { patches.push([ns, name, p]); return {}; } };
    const vmi = started(vmWith(1));
    await expect(applyLiveUpdate(vmis, vmi, { kind: 'hotplug', sockets: 3 })).resolves.toBe(false);
    expect(patches).toEqual([[vmi.metadata.namespace, vmi.metadata.name, { spec: { domain: { cpu: { sockets: 3 } } } }]]);
    await expect(applyLiveUpdate(vmis, vmi, { kind: 'restart', message: 'x' })).resolves.toBe(true);
    expect(patches).toHaveLength(1);
  });
});
