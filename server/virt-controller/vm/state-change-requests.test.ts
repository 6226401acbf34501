import { describe, expect, it } from 'vitest';
import { newVM, newVMI, withPhase, withRequests, withVMIDeleted } from '../../../lib/kubevirt/test-builders';
import type { VirtualMachine, VirtualMachineInstance, VirtualMachineStateChangeRequest } from '../../../lib/kubevirt';
import { isPausedStartRequested, trimStateChangeRequests } from './state-change-requests';

const stop = (uid?: string): VirtualMachineStateChangeRequest => ({ action: 'Stop', uid });
const start: VirtualMachineStateChangeRequest = { action: 'Start' };
const running = newVMI(withPhase('Running'));

describe('trimStateChangeRequests', () => {
  it.each<[string, VirtualMachine, VirtualMachineInstance | undefined, VirtualMachineStateChangeRequest[] | undefined]>([
    ['nothing queued', newVM(), running, undefined],
    ['Stop kept while its VMI exists', newVM(withRequests(stop('vmi-uid'), start)), running, [stop('vmi-uid'), start]],
    ['Stop dropped once no VMI exists', newVM(withRequests(stop('vmi-uid'), start)), undefined, [start]],
    ['Stop without UID dropped', newVM(withRequests(stop())), running, undefined],
    ['Stop for an older VMI dropped', newVM(withRequests(stop('old'), start)), running, [start]],
    ['Start kept while no VMI exists', newVM(withRequests(start)), undefined, [start]],
    ['Start kept while the VMI is final', newVM(withRequests(start)), newVMI(withPhase('Succeeded')), [start]],
    ['Start kept while the VMI is being deleted', newVM(withRequests(start)), newVMI(withPhase('Running'), withVMIDeleted), [start]],
    ['Start dropped once a live VMI exists', newVM(withRequests(start)), newVMI(withPhase('Pending')), undefined],
    ['only the first request is trimmed per sync', newVM(withRequests(stop('old'), stop('older'))), running, [stop('older')]],
  ])('%s', (_n, vm, vmi, want) => {
    expect(trimStateChangeRequests(vm, vmi)).toEqual(want);
  });
});

describe('isPausedStartRequested', () => {
  it.each<[string, VirtualMachine, boolean]>([
    ['paused start first', newVM(withRequests({ action: 'Start', data: { paused: 'true' } })), true],
    ['plain start', newVM(withRequests(start)), false],
    ['paused start behind a stop', newVM(withRequests(stop('x'), { action: 'Start', data: { paused: 'true' } })), false],
  ])('%s → %s', (_n, vm, want) => expect(isPausedStartRequested(vm)).toBe(want));
});
