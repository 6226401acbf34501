import { describe, expect, it } from 'vitest';
import { computePrintableStatus, PRINTABLE_STATUS_RULES, type PrintableStatusContext } from './printable-status';
import { PrintableStatus } from './enums';
import {
  newVM, newVMI, withCondition, withDataVolume, withMigration, withPhase, withPVC, withRequests,
  withRunStrategy, withRunning, withStartFailures, withVMDeleted, withVMIDeleted,
} from './test-builders';
import type { VirtualMachine } from './vm-types';
import type { VirtualMachineInstance } from './vmi-types';

const now = new Date('2026-06-01T12:00:00Z');
const before = '2026-06-01T11:59:00Z';
const after = '2026-06-01T12:01:00Z';
const running = withPhase('Running');
const paused = withCondition({ type: 'Paused', status: 'True', reason: 'PausedByUser' });
const syncFalse = (reason: string) => withCondition({ type: 'Synchronized', status: 'False', reason });
const dv = (name: string, phase: string, conditions: { type: string; status: 'True' | 'False'; reason?: string }[] = []) =>
  ({ metadata: { name }, status: { phase, conditions } });

type Row = [string, VirtualMachine, VirtualMachineInstance | undefined, Partial<PrintableStatusContext>, PrintableStatus];

const rows: Row[] = [
  // 1 Terminating wins over everything
  ['VM being deleted with a running VMI', newVM(withVMDeleted), newVMI(running), {}, 'Terminating'],
  // 2 Stopping
  ['VMI being deleted', newVM(), newVMI(running, withVMIDeleted), {}, 'Stopping'],
  ['VMI deletion expected', newVM(), newVMI(running), { deletionExpected: true }, 'Stopping'],
  ['final VMI being deleted is not Stopping', newVM(withRunStrategy('Halted')), newVMI(withPhase('Succeeded'), withVMIDeleted), {}, 'Stopped'],
  // 3 Migrating
  ['migration started, not ended', newVM(), newVMI(running, withMigration(before)), {}, 'Migrating'],
  ['migration ended', newVM(), newVMI(running, withMigration(before, before)), {}, 'Running'],
  ['migration start in the future', newVM(), newVMI(running, withMigration(after)), {}, 'Running'],
  ['migration end in the future', newVM(), newVMI(running, withMigration(before, after)), {}, 'Migrating'],
  // 4 Paused, 5 Running
  ['running and paused', newVM(), newVMI(running, paused), {}, 'Paused'],
  ['paused condition False', newVM(), newVMI(running, withCondition({ type: 'Paused', status: 'False' })), {}, 'Running'],
  ['running', newVM(), newVMI(running), {}, 'Running'],
  // 6 ErrorPvcNotFound
  ['PVC not found', newVM(), newVMI(withPhase('Pending'), syncFalse('FailedPvcNotFound')), {}, 'ErrorPvcNotFound'],
  // 7 DataVolumeError
  ['DataVolume failed', newVM(withDataVolume('dv1')), undefined, { dataVolumes: [dv('dv1', 'Failed')] }, 'DataVolumeError'],
  ['DataVolume importer error', newVM(withDataVolume('dv1')), undefined,
    { dataVolumes: [dv('dv1', 'ImportInProgress', [{ type: 'Running', status: 'False', reason: 'Error' }])] }, 'DataVolumeError'],
  ['failed DataVolume of another VM is ignored', newVM(withRunStrategy('Halted')), undefined, { dataVolumes: [dv('other', 'Failed')] }, 'Stopped'],
  // 8 ErrorUnschedulable
  ['pod unschedulable', newVM(), newVMI(withPhase('Scheduling'),
    withCondition({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' })), {}, 'ErrorUnschedulable'],
  // 9 Provisioning
  ['DataVolume importing', newVM(withDataVolume('dv1')), undefined, { dataVolumes: [dv('dv1', 'ImportInProgress')] }, 'Provisioning'],
  ['DataVolume WFFC and unbound is not provisioning', newVM(withDataVolume('dv1'), withRunStrategy('Halted')), undefined,
    { dataVolumes: [dv('dv1', 'WaitForFirstConsumer')] }, 'Stopped'],
  ['DataVolume WFFC but bound is provisioning', newVM(withDataVolume('dv1')), undefined,
    { dataVolumes: [dv('dv1', 'WaitForFirstConsumer', [{ type: 'Bound', status: 'True' }])] }, 'Provisioning'],
  ['DataVolume succeeded', newVM(withDataVolume('dv1'), withRunStrategy('Halted')), undefined, { dataVolumes: [dv('dv1', 'Succeeded')] }, 'Stopped'],
  // 10 WaitingForVolumeBinding
  ['set to start and PVC pending', newVM(withPVC('pvc1')), undefined,
    { persistentVolumeClaims: [{ metadata: { name: 'pvc1' }, status: { phase: 'Pending' } }] }, 'WaitingForVolumeBinding'],
  ['halted with PVC pending', newVM(withPVC('pvc1'), withRunStrategy('Halted')), undefined,
    { persistentVolumeClaims: [{ metadata: { name: 'pvc1' }, status: { phase: 'Pending' } }] }, 'Stopped'],
  // 11, 12 image pull
  ['image pull error', newVM(), newVMI(withPhase('Scheduling'), syncFalse('ErrImagePull')), {}, 'ErrImagePull'],
  ['image pull backoff', newVM(), newVMI(withPhase('Scheduling'), syncFalse('ImagePullBackOff')), {}, 'ImagePullBackOff'],
  // 13 Starting
  ['no VMI, creation expected', newVM(), undefined, { creationExpected: true }, 'Starting'],
  ['VMI phase unset', newVM(), newVMI(), {}, 'Starting'],
  ['VMI Pending', newVM(), newVMI(withPhase('Pending')), {}, 'Starting'],
  ['VMI Scheduling', newVM(), newVMI(withPhase('Scheduling')), {}, 'Starting'],
  ['VMI Scheduled', newVM(), newVMI(withPhase('Scheduled')), {}, 'Starting'],
  // 14 CrashLoopBackOff
  ['Always, no VMI, start failures', newVM(withStartFailures(2)), undefined, {}, 'CrashLoopBackOff'],
  ['RerunOnFailure, failed VMI, start failures', newVM(withRunStrategy('RerunOnFailure'), withStartFailures(1)), newVMI(withPhase('Failed')), {}, 'CrashLoopBackOff'],
  ['Once, start failures', newVM(withRunStrategy('Once'), withStartFailures(1)), undefined, {}, 'CrashLoopBackOff'],
  ['Manual with start failures is Stopped', newVM(withRunStrategy('Manual'), withStartFailures(3)), undefined, {}, 'Stopped'],
  ['start failures but creation expected', newVM(withStartFailures(2)), undefined, { creationExpected: true }, 'Starting'],
  ['running:true alias counts as Always', newVM(withRunning(true), withStartFailures(1)), undefined, {}, 'CrashLoopBackOff'],
  // 15 Stopped
  ['no VMI, none expected', newVM(withRunStrategy('Halted')), undefined, {}, 'Stopped'],
  ['VMI succeeded', newVM(withRunStrategy('Manual')), newVMI(withPhase('Succeeded')), {}, 'Stopped'],
  ['VMI failed, no failures counted', newVM(), newVMI(withPhase('Failed')), {}, 'Stopped'],
  // 16 WaitingForReceiver (only reachable with a VMI in WaitingForSync)
  ['receiver waiting for sync', newVM(withRunStrategy('WaitAsReceiver')), newVMI(withPhase('WaitingForSync')), {}, 'WaitingForReceiver'],
  // Unknown
  ['VMI in Unknown phase', newVM(), newVMI(withPhase('Unknown')), {}, 'Unknown'],
  ['Manual VM with a stop request and a running VMI is still Running', newVM(withRunStrategy('Manual'),
    withRequests({ action: 'Stop', uid: 'vmi-uid' })), newVMI(running), {}, 'Running'],
];

describe('computePrintableStatus', () => {
  it.each(rows)('%s → %s', (_name, vm, vmi, ctx, want) => {
    expect(computePrintableStatus(vm, vmi, { now, ...ctx })).toBe(want);
  });

  it('covers every rule of §1.5 with a row', () => {
    const covered = new Set(rows.map((r) => r[4]));
    for (const [status] of PRINTABLE_STATUS_RULES) expect(covered).toContain(status);
    expect(covered).toContain('Unknown');
  });
});
