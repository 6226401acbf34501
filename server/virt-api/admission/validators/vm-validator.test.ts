import { describe, expect, it } from 'vitest';
import { validateVM, MISSING_TEMPLATE_MESSAGE, RUN_STRATEGY_REQUIRED_MESSAGE, RUNNING_AND_RUN_STRATEGY_MESSAGE } from './vm-validator';
import { config, validVM } from '../test-fixtures';

describe('validateVM', () => {
  it('accepts the valid fixture', () => {
    expect(validateVM(validVM(), undefined, { config })).toEqual([]);
  });

  it.each<[string, (vm: any) => void, string, string]>([
    ['running and runStrategy', (vm) => { vm.spec.running = true; }, 'spec.running', RUNNING_AND_RUN_STRATEGY_MESSAGE],
    ['neither running nor runStrategy', (vm) => { delete vm.spec.runStrategy; }, 'spec.runStrategy', RUN_STRATEGY_REQUIRED_MESSAGE],
    ['invalid runStrategy', (vm) => { vm.spec.runStrategy = 'Sometimes'; }, 'spec.runStrategy', 'Invalid RunStrategy (Sometimes)'],
    ['WaitAsReceiver without its gate', (vm) => { vm.spec.runStrategy = 'WaitAsReceiver'; }, 'spec.runStrategy', 'Invalid RunStrategy (WaitAsReceiver)'],
    ['template missing', (vm) => { delete vm.spec.template; }, 'spec.template', MISSING_TEMPLATE_MESSAGE],
    ['template disk without volume', (vm) => { vm.spec.template.spec.domain.devices.disks[0].name = 'x'; },
      'spec.template.spec.domain.devices.disks[0].name', "spec.template.spec.domain.devices.disks[0].Name 'x' not found."],
    ['template sockets above maxSockets (CPU hotplug)', (vm) => { vm.spec.template.spec.domain.cpu = { sockets: 6, maxSockets: 4 }; },
      'spec.template.spec.domain.cpu.sockets', 'Number of sockets in CPU topology is greater than the maximum sockets allowed'],
    ['template memory missing', (vm) => { vm.spec.template.spec.domain.resources = {}; }, '',
      "no memory requested, at least one of 'spec.template.spec.domain.memory.guest'"],
  ])('%s', (_n, edit, field, message) => {
    const vm = validVM();
    edit(vm);
    expect(validateVM(vm, undefined, { config })).toContainEqual(expect.objectContaining({ field, message: expect.stringContaining(message) }));
  });

  it('accepts the deprecated running field alone', () => {
    const vm = validVM();
    delete vm.spec.runStrategy;
    vm.spec.running = false;
    expect(validateVM(vm, undefined, { config })).toEqual([]);
  });

  it('leaves memory to the instancetype', () => {
    const vm = validVM();
    vm.spec.template.spec.domain.resources = {};
    vm.spec.instancetype = { name: 'u1.small' };
    expect(validateVM(vm, undefined, { config })).toEqual([]);
  });
});

describe('validateVM: memory hotplug under LiveUpdate (KubeVirt\'s messages)', () => {
  const live = { ...config, vmRolloutStrategy: 'LiveUpdate' };
  const withMemory = (memory: object) => {
    const vm = validVM();
    vm.spec.template.spec.domain.memory = memory;
    return vm;
  };
  const field = 'spec.template.spec.domain.memory.guest';
  it.each([
    ['guest above maxGuest', { guest: '4Gi', maxGuest: '2Gi' }, 'Guest memory is greater than the configured maxGuest memory'],
    ['unaligned guest', { guest: '1025Mi', maxGuest: '4Gi' }, 'Guest memory must be 2Mi aligned'],
    ['unaligned maxGuest', { guest: '1Gi', maxGuest: '4097Mi' }, 'MaxGuest must be 2Mi aligned'],
    ['under 1Gi', { guest: '512Mi', maxGuest: '2Gi' }, 'Memory hotplug is only available for VMs with at least 1Gi of guest memory'],
  ])('%s → 422', (_n, memory, message) => {
    expect(validateVM(withMemory(memory), undefined, { config: live })).toEqual([expect.objectContaining({ field, message })]);
  });
  it('accepts a valid maxGuest', () => {
    expect(validateVM(withMemory({ guest: '1Gi', maxGuest: '4Gi' }), undefined, { config: live })).toEqual([]);
  });
  it('does not check maxGuest under Stage (KubeVirt neither)', () => {
    expect(validateVM(withMemory({ guest: '512Mi', maxGuest: '2Gi' }), undefined, { config })).toEqual([]);
  });
});

describe('validateVM while a restore writes into the VM', () => {
  const restoring = (runStrategy: string, restoreInProgress?: string) => {
    const vm = validVM();
    vm.spec.runStrategy = runStrategy;
    delete vm.spec.running;
    if (restoreInProgress) vm.status = { restoreInProgress };
    return vm;
  };
  it('refuses a run strategy change with KubeVirt\'s words, allows other changes and any change once the restore is done', () => {
    const old = restoring('Halted', 'r1');
    expect(validateVM(restoring('Always', 'r1'), old, { config }).map((c) => `${c.field}: ${c.message}`))
      .toEqual(['spec: Cannot update VM runStrategy until restore "r1" completes']);
    const relabelled = restoring('Halted', 'r1');
    relabelled.spec.template.metadata = { labels: { a: 'b' } };
    expect(validateVM(relabelled, old, { config })).toEqual([]);
    expect(validateVM(restoring('Always'), restoring('Halted'), { config })).toEqual([]);
  });
});
