/**
 * The console never offers what virt-api refuses: one table of VM/VMI states fed to virt-api's
 * lifecycle planners and checks and to the console's action availability. Where the server
 * refuses, the console greys the action out with the server's own message; where the console
 * offers an action, the server accepts it.
 */
import { describe, expect, it } from 'vitest';
import { computeActionAvailability, type VMAction } from '../../../lib/console/vm-actions';
import {
  newVM, newVMI, withCondition, withPhase, withRunStrategy,
} from '../../../lib/kubevirt/test-builders';
import type { VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';
import { planMigrate } from './migrate';
import { planRestart } from './restart';
import { planStart } from './start';
import { planStop } from './stop';
import { checkPause, checkSoftReboot, checkUnpause } from './vmi-checks';

type Server = (vm: VirtualMachine, vmi: VirtualMachineInstance | undefined) => void;
const vmiOnly = (check: (vmi: VirtualMachineInstance) => void): Server => (_vm, vmi) => {
  if (!vmi) throw Object.assign(new Error('not found'), { code: 404 });
  check(vmi);
};
const SERVER: Partial<Record<VMAction, Server>> = {
  start: (vm, vmi) => planStart(vm, vmi, {}),
  stop: (vm, vmi) => planStop(vm, vmi, {}),
  forceStop: (vm, vmi) => planStop(vm, vmi, { gracePeriod: 0 }),
  restart: (vm, vmi) => planRestart(vm, vmi, {}),
  pause: vmiOnly(checkPause),
  unpause: (vm, vmi) => vmiOnly((v) => checkUnpause(v, vm))(vm, vmi),
  softReboot: vmiOnly(checkSoftReboot),
  migrate: (vm, vmi) => planMigrate(vm, vmi, {}),
};

const paused = withCondition({ type: 'Paused', status: 'True' });
const migrating: (v: VirtualMachineInstance) => void = (v) => { v.status = { ...v.status, migrationState: { startTimestamp: '2026-01-01T00:00:00Z' } }; };
const graced: (v: VirtualMachineInstance) => void = (v) => { v.spec.terminationGracePeriodSeconds = 30; };
const STRATEGIES = ['Always', 'Halted', 'Manual', 'RerunOnFailure', 'Once'] as const;
const VMI_STATES: [string, VirtualMachineInstance | undefined][] = [
  ['no VMI', undefined],
  ['Pending', newVMI(withPhase('Pending'))],
  ['Running', newVMI(withPhase('Running'))],
  ['Running with a grace period', newVMI(withPhase('Running'), graced)],
  ['Running, paused', newVMI(withPhase('Running'), paused)],
  ['Running, migrating', newVMI(withPhase('Running'), migrating)],
  ['Succeeded', newVMI(withPhase('Succeeded'))],
  ['Failed', newVMI(withPhase('Failed'))],
];
const CASES = STRATEGIES.flatMap((rs) => VMI_STATES.map(([state, vmi]) => [`${rs}, ${state}`, newVM(withRunStrategy(rs)), vmi] as const));

/** the server's refusal message, or undefined when it accepts */
function serverRefusal(action: VMAction, vm: VirtualMachine, vmi: VirtualMachineInstance | undefined): string | undefined {
  try {
    SERVER[action]!(vm, vmi);
    return undefined;
  } catch (err) {
    const e = err as { code: number; message: string };
    return e.code === 404 ? 'not found' : e.message;
  }
}

describe.each(CASES)('%s', (_name, vm, vmi) => {
  const console = computeActionAvailability(vm, vmi, { canWrite: true });
  it.each(Object.keys(SERVER) as VMAction[])('%s: offered only if accepted, refused with the server\'s words', (action) => {
    const refused = serverRefusal(action, vm, vmi);
    if (refused === undefined) return; // the console may still hold back (e.g. a migration the VMIM admission refuses)
    expect(console[action], `the console offers ${action} but virt-api answers: ${refused}`).toBeDefined();
    if (refused !== 'not found') expect(refused).toContain(console[action]!);
  });
});
