/** Conditions explained in words: what a `type=status (reason)` means to someone running VMs. */
import type { Condition } from '../kubevirt';

const TEXT: Record<string, { True: string; False: string }> = {
  Ready: { True: 'The guest is running and ready.', False: 'The guest is not ready yet.' },
  PodScheduled: { True: 'A node was found for it.', False: 'No node can take it right now.' },
  Synchronized: { True: 'The node agent applied its spec.', False: 'The node agent could not apply its spec.' },
  Paused: { True: 'The guest is paused: its CPUs are stopped, memory is kept.', False: 'The guest is not paused.' },
  LiveMigratable: { True: 'It can be live-migrated to another node.', False: 'It cannot be live-migrated.' },
  AgentConnected: { True: 'The guest agent is connected.', False: 'No guest agent is connected.' },
  SoftwareEmulation: { True: 'Runs with software emulation (no KVM on this node): slower than hardware virtualization.', False: 'Runs with hardware virtualization.' },
  Failure: { True: 'The last attempt to run it failed.', False: 'No failure.' },
  RestartRequired: { True: 'A change needs a restart to apply.', False: 'No restart needed.' },
  ManualRecoveryRequired: { True: 'It needs manual recovery before it can start.', False: 'No recovery needed.' },
  MigrationRequired: { True: 'A change needs a live migration to apply.', False: 'No migration needed.' },
  EvictionRequested: { True: 'Its node asked it to leave (drain).', False: 'No eviction requested.' },
  DataVolumesReady: { True: 'Its volumes are ready.', False: 'Its volumes are not ready yet.' },
};

const REASONS: Record<string, string> = {
  PodNotExists: 'its launcher Pod does not exist yet',
  PodTerminating: 'its launcher Pod is shutting down',
  GuestNotRunning: 'the guest is not reported as running',
  VMINotExists: 'it has no running instance',
  Unschedulable: 'the scheduler found no node with room for it',
  PausedByUser: 'a user paused it',
  PausedIOError: 'QEMU paused it after a disk I/O error',
  PausedByMigrationMonitor: 'the migration paused it to finish copying memory',
  DisksNotLiveMigratable: 'a disk cannot be shared with another node',
  InterfaceNotLiveMigratable: 'a network interface cannot move to another node',
  UseEmulation: 'KVM is not usable on the node',
};

/** One sentence for a condition, with the reason in words and the message when there is one. */
export function describeCondition(c: Condition): string {
  const base = TEXT[c.type]?.[c.status === 'True' ? 'True' : 'False'] ?? `${c.type} is ${c.status}.`;
  const why = c.reason ? REASONS[c.reason] ?? c.reason : '';
  const parts = [base];
  if (why && c.status !== 'True') parts.push(`Because ${why}.`);
  else if (why && c.type === 'Paused') parts.push(`Because ${why}.`);
  if (c.message && c.message !== why) parts.push(c.message);
  return parts.join(' ');
}

/** Whether a condition is bad news (shown in amber/red). */
export function isConditionProblem(c: Condition): boolean {
  const goodWhenTrue = ['Ready', 'PodScheduled', 'Synchronized', 'LiveMigratable', 'AgentConnected', 'DataVolumesReady'];
  if (goodWhenTrue.includes(c.type)) return c.status === 'False';
  return ['Failure', 'ManualRecoveryRequired', 'Paused'].includes(c.type) && c.status === 'True';
}
