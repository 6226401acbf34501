/**
 * "Why isn't it running?": one plain-language list of causes drawn from the VM and VMI conditions,
 * the launcher Pod and the recent Warning events, each with what to do about it.
 */
import {
  PrintableStatus, RunStrategy, findCondition, runStrategyOf,
  type KubeObject, type VirtualMachine, type VirtualMachineInstance,
} from '../kubevirt';

export interface KubeEvent extends KubeObject {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  lastTimestamp?: string;
  eventTime?: string;
  involvedObject?: { kind?: string; name?: string; namespace?: string; uid?: string };
}

export interface PodLike extends KubeObject {
  status?: {
    phase?: string;
    reason?: string;
    message?: string;
    containerStatuses?: { name: string; state?: { waiting?: { reason?: string; message?: string }; terminated?: { exitCode?: number; reason?: string; message?: string } } }[];
  };
}

export interface Cause {
  severity: 'info' | 'warning' | 'error';
  title: string;
  detail?: string;
  fix?: string;
}

const EVENT_LIMIT = 3;

function strategyCauses(vm: VirtualMachine, vmi?: VirtualMachineInstance): Cause[] {
  if (vm.metadata.deletionTimestamp) return [{ severity: 'info', title: 'It is being deleted.' }];
  const rs = runStrategyOf(vm);
  if (!rs.ok) return [{ severity: 'error', title: 'Its run strategy is invalid.', detail: rs.error, fix: 'Edit the YAML: set either spec.runStrategy or spec.running.' }];
  if (!vmi && (rs.strategy === RunStrategy.Halted || rs.strategy === RunStrategy.Manual)) {
    return [{ severity: 'info', title: 'It is stopped, as asked.', detail: `runStrategy is ${rs.strategy}.`, fix: 'Press Start.' }];
  }
  return [];
}

function conditionCauses(vm: VirtualMachine, vmi?: VirtualMachineInstance): Cause[] {
  const out: Cause[] = [];
  const failure = findCondition(vm, 'Failure');
  if (failure?.status === 'True') out.push({ severity: 'error', title: 'The last start failed.', detail: failure.message || failure.reason });
  const fails = vm.status?.startFailure?.consecutiveFailCount ?? 0;
  if (fails > 0) {
    const retry = vm.status?.startFailure?.retryAfterTimestamp;
    out.push({ severity: 'error', title: `It failed to start ${fails} time${fails > 1 ? 's' : ''} in a row.`, detail: retry ? `Next try after ${retry}.` : undefined, fix: 'Open the serial console or the events to see why the guest stops.' });
  }
  const sched = findCondition(vmi, 'PodScheduled');
  if (sched?.status === 'False') {
    out.push({ severity: 'error', title: 'No node can take it.', detail: sched.message || sched.reason, fix: 'Free memory or CPU on a node, uncordon a node, or lower the VM\'s requests or node selector.' });
  }
  const sync = findCondition(vmi, 'Synchronized');
  if (sync?.status === 'False') out.push({ severity: 'error', title: 'The node could not start it.', detail: [sync.reason, sync.message].filter(Boolean).join(': ') });
  if (vmi?.status?.phase === 'Failed') out.push({ severity: 'error', title: 'The guest failed.', detail: vmi.status.reason });
  if (findCondition(vmi, 'Paused')?.status === 'True') out.push({ severity: 'info', title: 'It is paused.', detail: findCondition(vmi, 'Paused')?.reason, fix: 'Press Unpause.' });
  return out;
}

function podCauses(pod?: PodLike): Cause[] {
  if (!pod?.status) return [];
  const out: Cause[] = [];
  for (const cs of pod.status.containerStatuses ?? []) {
    const w = cs.state?.waiting;
    if (w?.reason && w.reason !== 'ContainerCreating') out.push({ severity: 'error', title: `The launcher container "${cs.name}" is waiting: ${w.reason}.`, detail: w.message });
    const t = cs.state?.terminated;
    if (t && t.exitCode !== 0) out.push({ severity: 'error', title: `The launcher container "${cs.name}" exited with code ${t.exitCode}.`, detail: t.message || t.reason });
  }
  if (pod.status.phase === 'Failed') out.push({ severity: 'error', title: 'The launcher Pod failed.', detail: pod.status.message || pod.status.reason });
  return out;
}

const eventTime = (e: KubeEvent) => Date.parse(e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp ?? '') || 0;

function eventCauses(events: KubeEvent[]): Cause[] {
  return events
    .filter((e) => e.type === 'Warning')
    .sort((a, b) => eventTime(b) - eventTime(a))
    .slice(0, EVENT_LIMIT)
    .map((e) => ({ severity: 'warning', title: `${e.involvedObject?.kind ?? 'Event'}: ${e.reason ?? 'Warning'}${(e.count ?? 1) > 1 ? ` (×${e.count})` : ''}`, detail: e.message }));
}

/** Every cause, most telling first; empty when the VM is running. */
export function explainWhyNotRunning(input: { vm: VirtualMachine; vmi?: VirtualMachineInstance; pod?: PodLike; events: KubeEvent[]; status: string }): Cause[] {
  if (input.status === PrintableStatus.Running || input.status === PrintableStatus.Migrating) return [];
  return [
    ...strategyCauses(input.vm, input.vmi),
    ...conditionCauses(input.vm, input.vmi),
    ...podCauses(input.pod),
    ...eventCauses(input.events),
  ];
}
