import { describe, expect, it } from 'vitest';
import { defaultMaxSockets, isLiveUpdate, planCPULiveUpdate } from './cpu-hotplug';
import type { VirtualMachineInstanceSpec } from './vmi-spec-types';

const spec = (cpu: NonNullable<VirtualMachineInstanceSpec['domain']['cpu']>, memory = '128Mi'): VirtualMachineInstanceSpec => ({
  domain: { cpu, memory: { guest: memory }, devices: {} },
});

describe('defaultMaxSockets', () => {
  it.each([
    ['4× sockets by default', { sockets: 1 }, 4],
    ['4× two sockets', { sockets: 2, cores: 2 }, 8],
    ['the VM\'s own maxSockets', { sockets: 1, maxSockets: 3 }, 3],
    ['never below sockets', { sockets: 5, maxSockets: 3 }, 5],
    ['capped by 288 vCPUs', { sockets: 4, cores: 32, threads: 2 }, 4],
    ['capped, partly', { sockets: 2, cores: 64 }, 4],
    ['no sockets: no hotplug', { cores: 2 }, undefined],
  ])('%s', (_name, cpu, want) => expect(defaultMaxSockets(cpu)).toBe(want));

  it.each([
    ['the cluster\'s maxCpuSockets', { sockets: 1 }, { maxCpuSockets: 6 }, 6],
    ['the VM\'s own wins over the cluster\'s', { sockets: 1, maxSockets: 3 }, { maxCpuSockets: 6 }, 3],
    ['sockets above the cluster\'s maxCpuSockets', { sockets: 8 }, { maxCpuSockets: 6 }, 8],
    ['the cluster\'s maxHotplugRatio', { sockets: 2 }, { maxHotplugRatio: 2 }, 4],
    ['a ratio of 0 is ignored', { sockets: 2 }, { maxHotplugRatio: 0 }, 8],
  ])('liveUpdateConfiguration: %s', (_name, cpu, live, want) => expect(defaultMaxSockets(cpu, live)).toBe(want));
});

describe('isLiveUpdate', () => {
  it('only for vmRolloutStrategy LiveUpdate', () => {
    expect(isLiveUpdate({ vmRolloutStrategy: 'LiveUpdate' })).toBe(true);
    expect(isLiveUpdate({ vmRolloutStrategy: 'Stage' })).toBe(false);
    expect(isLiveUpdate({})).toBe(false);
  });
});

describe('planCPULiveUpdate', () => {
  const running = spec({ sockets: 1, maxSockets: 4 });
  it.each([
    ['nothing changed', spec({ sockets: 1 }), running, { kind: 'none' }],
    ['sockets 1→2', spec({ sockets: 2 }), running, { kind: 'hotplug', sockets: 2 }],
    ['sockets 1→4 (the maximum)', spec({ sockets: 4 }), running, { kind: 'hotplug', sockets: 4 }],
    ['already applied', spec({ sockets: 2 }), spec({ sockets: 2, maxSockets: 4 }), { kind: 'none' }],
    ['above maxSockets', spec({ sockets: 5 }), running, { kind: 'restart', message: "CPU sockets updated in template spec to a value higher than what's available" }],
    ['unplug', spec({ sockets: 1 }), spec({ sockets: 2, maxSockets: 4 }), { kind: 'restart', message: 'Reduction of CPU socket count requires a restart' }],
    ['guest memory changed too (its own plan)', spec({ sockets: 2 }, '256Mi'), running, { kind: 'hotplug', sockets: 2 }],
    ['cores changed', spec({ sockets: 1, cores: 2 }), running, { kind: 'restart', message: 'a non-live-updatable field was changed in the template spec' }],
    ['started without maxSockets', spec({ sockets: 2 }), spec({ sockets: 1 }), { kind: 'restart', message: "CPU sockets updated in template spec to a value higher than what's available" }],
  ])('%s', (_name, current, run, want) => expect(planCPULiveUpdate(current, spec({ sockets: 1 }), run)).toEqual(want));

  it('a maxSockets edit alone is no restart', () => {
    expect(planCPULiveUpdate(spec({ sockets: 1, maxSockets: 4 }), spec({ sockets: 1 }), running)).toEqual({ kind: 'none' });
  });
});
