import { describe, expect, it } from 'vitest';
import { newVM, newVMI, withCondition, withPhase } from '../../../lib/kubevirt/test-builders';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import { ApiError } from '../api-error';
import { checkGuestAgent, checkPause, checkSoftReboot, checkStream, checkUnpause } from './vmi-checks';

const paused = withCondition({ type: 'Paused', status: 'True' });
const agent = withCondition({ type: 'AgentConnected', status: 'True' });
const running = newVMI(withPhase('Running'));

function outcome(check: () => void): string {
  try {
    check();
    return 'ok';
  } catch (err) {
    return err instanceof ApiError ? `${err.code} ${err.message}` : String(err);
  }
}

describe('VMI subresource preconditions', () => {
  it.each<[string, () => void, string]>([
    ['pause running', () => checkPause(running), 'ok'],
    ['pause pending', () => checkPause(newVMI(withPhase('Pending'))), '409 Operation cannot be fulfilled on virtualmachineinstance.kubevirt.io "vm1": VM is not running'],
    ['pause migrating', () => checkPause(newVMI(withPhase('Running'), (v) => { v.status!.migrationState = { startTimestamp: '2026-01-01T00:00:00Z' } as never; })),
      '409 Operation cannot be fulfilled on virtualmachineinstance.kubevirt.io "vm1": Cannot pause VM \'vm1\' because it is currently being migrated'],
    ['pause after a migration', () => checkPause(newVMI(withPhase('Running'), (v) => { v.status!.migrationState = { completed: true } as never; })), 'ok'],
    ['pause paused', () => checkPause(newVMI(withPhase('Running'), paused)), '409 Operation cannot be fulfilled on virtualmachineinstance.kubevirt.io "vm1": VMI is already paused'],
    ['pause with an exec liveness probe', () => checkPause(newVMI(withPhase('Running'), (v) => { v.spec.livenessProbe = { exec: {} }; })),
      '403 virtualmachineinstance.kubevirt.io "vm1" is forbidden: Pausing VMIs with a non-GuestAgentPing LivenessProbe is not supported'],
    ['unpause paused', () => checkUnpause(newVMI(withPhase('Running'), paused), undefined), 'ok'],
    ['unpause not paused', () => checkUnpause(running, undefined), '409 Operation cannot be fulfilled on virtualmachineinstance.kubevirt.io "vm1": VMI is not paused'],
    ['unpause stopped', () => checkUnpause(newVMI(withPhase('Succeeded')), undefined), '409 Operation cannot be fulfilled on virtualmachineinstance.kubevirt.io "vm1": VMI is not running'],
    ['unpause during a snapshot', () => checkUnpause(newVMI(withPhase('Running'), paused), newVM((v) => { v.status = { snapshotInProgress: 's' }; })),
      '409 Operation cannot be fulfilled on virtualmachine.kubevirt.io "vm1": VM snapshot is in progress'],
    ['softreboot running', () => checkSoftReboot(running), 'ok'],
    ['softreboot paused', () => checkSoftReboot(newVMI(withPhase('Running'), paused)), '409 Operation cannot be fulfilled on virtualmachineinstance.kubevirt.io "vm1": VMI is paused'],
    ['softreboot without agent and ACPI', () => checkSoftReboot(newVMI(withPhase('Running'), (v) => { v.spec.domain.features = { acpi: { enabled: false } }; })),
      '409 Operation cannot be fulfilled on virtualmachineinstance.kubevirt.io "vm1": VMI neither have the agent connected nor the ACPI feature enabled'],
    ['guestosinfo without agent', () => checkGuestAgent(running), '409 Operation cannot be fulfilled on virtualmachineinstance.kubevirt.io "vm1": VMI does not have guest agent connected'],
    ['guestosinfo with agent', () => checkGuestAgent(newVMI(withPhase('Running'), agent)), 'ok'],
    ['vnc running', () => checkStream(running, 'vnc'), 'ok'],
    ['vnc without graphics', () => checkStream(newVMI(withPhase('Running'), (v) => { v.spec.domain.devices.autoattachGraphicsDevice = false; }), 'vnc'), '400 No graphics devices are present.'],
    ['console without serial', () => checkStream(newVMI(withPhase('Running'), (v) => { v.spec.domain.devices.autoattachSerialConsole = false; }), 'console'), '400 No serial consoles are present.'],
    ['console of a failed VMI', () => checkStream(newVMI(withPhase('Failed')), 'console'), '409 Operation cannot be fulfilled on virtualmachineinstance.kubevirt.io "vm1": VMI is in failed status'],
    ['vnc of a pending VMI', () => checkStream(newVMI(withPhase('Pending')) as VirtualMachineInstance, 'vnc'),
      '400 Unable to connect to VirtualMachineInstance because phase is Pending instead of Running or Scheduled'],
  ])('%s → %s', (_n, check, want) => expect(outcome(check)).toBe(want));
});
