import { describe, expect, it } from 'vitest';
import { defaultMaxGuest, planMemoryLiveUpdate, validateLiveUpdateMemory, virtioMemPlan } from './memory-hotplug';
import type { VirtualMachineInstanceSpec } from './vmi-spec-types';
import type { VirtualMachineInstance } from './vmi-types';

const spec = (memory: NonNullable<VirtualMachineInstanceSpec['domain']['memory']>, extra: Partial<VirtualMachineInstanceSpec['domain']> = {}): VirtualMachineInstanceSpec => ({
  domain: { memory, devices: {}, ...extra },
});
const Gi = 2 ** 30;

describe('validateLiveUpdateMemory (KubeVirt\'s messages)', () => {
  it.each([
    ['fine', spec({ guest: '1Gi' }), '4Gi', undefined],
    ['no guest', spec({}), '4Gi', 'Guest memory must be configured when memory hotplug is enabled'],
    ['no maxGuest', spec({ guest: '1Gi' }), undefined, 'Max guest memory must be configured when memory hotplug is enabled'],
    ['guest above maxGuest', spec({ guest: '5Gi' }), '4Gi', 'Guest memory is greater than the configured maxGuest memory'],
    ['unaligned guest', spec({ guest: '1025Mi' }), '4Gi', 'Guest memory must be 2Mi aligned'],
    ['unaligned maxGuest', spec({ guest: '1Gi' }), '4097Mi', 'MaxGuest must be 2Mi aligned'],
    ['1Gi hugepages align to 1Gi', spec({ guest: '1Gi', hugepages: { pageSize: '1Gi' } }), '2560Mi', 'MaxGuest must be 1Gi aligned'],
    ['not x86_64', { ...spec({ guest: '1Gi' }), architecture: 'arm64' }, '4Gi', 'Memory hotplug is only available for x86_64 VMs'],
    ['under 1Gi', spec({ guest: '512Mi' }), '2Gi', 'Memory hotplug is only available for VMs with at least 1Gi of guest memory'],
  ])('%s', (_n, s, max, want) => expect(validateLiveUpdateMemory(s, max)).toBe(want));
});

describe('defaultMaxGuest', () => {
  it.each([
    ['4× guest by default', spec({ guest: '1Gi' }), undefined, '4Gi'],
    ['the VM\'s own', spec({ guest: '1Gi', maxGuest: '3Gi' }), { maxGuest: '8Gi' }, '3Gi'],
    ['the cluster\'s maxGuest', spec({ guest: '1Gi' }), { maxGuest: '8Gi' }, '8Gi'],
    ['the cluster\'s ratio', spec({ guest: '2Gi' }), { maxHotplugRatio: 2 }, '4Gi'],
    ['under 1Gi: no hotplug', spec({ guest: '512Mi' }), undefined, undefined],
    ['no guest (requests only): no hotplug', spec({}), undefined, undefined],
    ['hugepages: no hotplug here', spec({ guest: '2Gi', hugepages: { pageSize: '2Mi' } }), undefined, undefined],
    ['cluster maxGuest below guest: no hotplug', spec({ guest: '4Gi' }), { maxGuest: '2Gi' }, undefined],
  ])('%s', (_n, s, live, want) => expect(defaultMaxGuest(s, live)).toBe(want));
});

describe('virtioMemPlan', () => {
  it('spans maxGuest − guestAtBoot and requests guest − guestAtBoot', () => {
    expect(virtioMemPlan(spec({ guest: '2Gi', maxGuest: '4Gi' }), { memory: { guestAtBoot: '1Gi' } }))
      .toEqual({ bootBytes: Gi, maxBytes: 4 * Gi, regionBytes: 3 * Gi, requestedBytes: Gi, blockBytes: 2 * 2 ** 20 });
  });
  it('boots with guest when the status has no guestAtBoot', () => {
    expect(virtioMemPlan(spec({ guest: '1Gi', maxGuest: '4Gi' }))?.requestedBytes).toBe(0);
  });
  it('none without room', () => {
    expect(virtioMemPlan(spec({ guest: '1Gi', maxGuest: '1Gi' }))).toBeUndefined();
    expect(virtioMemPlan(spec({ guest: '1Gi' }))).toBeUndefined();
  });
});

describe('planMemoryLiveUpdate (KubeVirt\'s handleMemoryHotplugRequest)', () => {
  const vmi = (memory: NonNullable<VirtualMachineInstanceSpec['domain']['memory']>, opts: { requests?: string; limits?: string; condition?: string } = {}): VirtualMachineInstance => ({
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'v', namespace: 'default' },
    spec: spec(memory, { resources: { requests: opts.requests ? { memory: opts.requests } : undefined, limits: opts.limits ? { memory: opts.limits } : undefined } }),
    status: {
      memory: { guestAtBoot: '1Gi', guestCurrent: memory.guest, guestRequested: memory.guest },
      conditions: opts.condition ? [{ type: 'HotMemoryChange', status: opts.condition }] : [],
    },
  } as VirtualMachineInstance);
  const running = vmi({ guest: '1Gi', maxGuest: '4Gi' });
  it.each([
    ['unchanged', spec({ guest: '1Gi' }), running, { kind: 'none' }],
    ['1Gi → 2Gi', spec({ guest: '2Gi' }), running, { kind: 'hotplug', guest: '2Gi' }],
    ['up to maxGuest', spec({ guest: '4Gi' }), running, { kind: 'hotplug', guest: '4Gi' }],
    ['requests grow by the change', spec({ guest: '2Gi' }), vmi({ guest: '1Gi', maxGuest: '4Gi' }, { requests: '1Gi' }), { kind: 'hotplug', guest: '2Gi', requestsMemory: '2Gi' }],
    ['limits grow when the VM sets them', spec({ guest: '2Gi' }, { resources: { limits: { memory: '1Gi' } } }), vmi({ guest: '1Gi', maxGuest: '4Gi' }, { limits: '1Gi' }), { kind: 'hotplug', guest: '2Gi', limitsMemory: '2Gi' }],
    ['lowering to what it booted with is live', spec({ guest: '1Gi' }), vmi({ guest: '2Gi', maxGuest: '4Gi' }), { kind: 'hotplug', guest: '1Gi' }],
    ['below what it booted with', spec({ guest: '512Mi' }), running, { kind: 'restart', message: 'memory hotplug not supported, Memory hotplug is only available for VMs with at least 1Gi of guest memory' }],
    ['above maxGuest (KubeVirt\'s validation answers first)', spec({ guest: '8Gi' }), running, { kind: 'restart', message: 'memory hotplug not supported, Guest memory is greater than the configured maxGuest memory' }],
    ['started without maxGuest', spec({ guest: '2Gi' }), vmi({ guest: '1Gi' }), { kind: 'restart', message: 'memory updated in template spec. Memory-hotplug is not available for this VM configuration' }],
    ['a change in flight', spec({ guest: '3Gi' }), vmi({ guest: '2Gi', maxGuest: '4Gi' }, { condition: 'True' }), { kind: 'wait', message: 'another memory hotplug is in progress' }],
    ['a failed change', spec({ guest: '3Gi' }), vmi({ guest: '2Gi', maxGuest: '4Gi' }, { condition: 'False' }), { kind: 'restart', message: 'memory updated in template spec. Memory-hotplug failed and is not available for this VM configuration' }],
  ])('%s', (_n, wanted, v, want) => expect(planMemoryLiveUpdate(wanted, v, false)).toEqual(want));

  it('waits while the VMI migrates', () => {
    expect(planMemoryLiveUpdate(spec({ guest: '2Gi' }), running, true)).toEqual({ kind: 'wait', message: 'memory hotplug is not allowed while VMI is migrating' });
  });
  it('below guestAtBoot but valid → restart', () => {
    const big = vmi({ guest: '2Gi', maxGuest: '8Gi' });
    big.status!.memory!.guestAtBoot = '2Gi';
    expect(planMemoryLiveUpdate(spec({ guest: '1Gi' }), big, false)).toEqual({ kind: 'restart', message: 'memory updated in template spec to a value lower than what the VM started with' });
  });
});
