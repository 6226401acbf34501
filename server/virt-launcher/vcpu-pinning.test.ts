import { describe, expect, it } from 'vitest';
import { ownCpus, planPinning } from './vcpu-pinning';

describe('planPinning', () => {
  it('puts vCPU i on the i-th dedicated CPU; the emulator shares the vCPUs\' CPUs', () => {
    expect(planPinning([2, 3], [101, 102], [100, 101, 102, 103], false)).toEqual({
      vcpus: [{ tid: 101, cpu: 2 }, { tid: 102, cpu: 3 }],
      emulator: { tids: [100, 103], cpus: [2, 3] },
    });
  });

  it('isolateEmulatorThread: QEMU\'s other threads get the CPU after the vCPUs\'', () => {
    expect(planPinning([1, 2], [101], [100, 101, 105], true)).toEqual({
      vcpus: [{ tid: 101, cpu: 1 }],
      emulator: { tids: [100, 105], cpus: [2] },
    });
  });

  it('says so when the Pod has fewer CPUs than it needs', () => {
    expect(planPinning([0, 1], [101, 102], [100, 101, 102], true)).toEqual({
      error: 'dedicatedCpuPlacement needs 3 CPUs of its own, the launcher has 2 (0-1): is the node\'s static CPU manager on?',
    });
  });
});

describe('ownCpus', () => {
  it('reads Cpus_allowed_list', () => {
    expect(ownCpus('Name:\tx\nCpus_allowed:\t2\nCpus_allowed_list:\t1,3-4\n')).toEqual([1, 3, 4]);
  });
});
