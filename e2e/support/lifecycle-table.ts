/**
 * The runStrategy × action × {running, stopped} table (KubeVirt's lifecycle.go, reference §4.3)
 * and how to bring a VM into each starting state. Rows that fail (4xx) leave the VM as it was,
 * so a group's failing rows share one VM; each succeeding row gets its own.
 */
import { callRest, subresource, until, type Endpoint, type RestReply } from './rest';
import { createVM, demoVM, NS, readState, type VMState } from './vm-fixtures';

export type Strategy = 'Always' | 'RerunOnFailure' | 'Manual' | 'Halted' | 'Once';
export type Action = 'start' | 'stop' | 'restart' | 'forceStop' | 'pause' | 'unpause' | 'migrate';
export type Start = 'running' | 'stopped';

/** After the call: the VMI kept (same uid), replaced/created (`new`, Running) or absent; the printableStatus. */
export interface Settle { vmi: 'same' | 'new' | 'none'; printable: string; runStrategy?: string }
export interface Row { strategy: Strategy; start: Start; action: Action; code: number; message?: string; settle: Settle }

const vmConflict = (msg: string) => `Operation cannot be fulfilled on virtualmachine.kubevirt.io "{name}": ${msg}`;
const vmiConflict = (msg: string) => `Operation cannot be fulfilled on virtualmachineinstance.kubevirt.io "{name}": ${msg}`;
const vmiNotFound = 'virtualmachineinstance.kubevirt.io "{name}" not found';

const RUNNING: Settle = { vmi: 'same', printable: 'Running' };
const STOPPED_NO_VMI: Settle = { vmi: 'none', printable: 'Stopped' };

function runningRows(strategy: Exclude<Strategy, 'Halted'>): Omit<Row, 'strategy' | 'start'>[] {
  const flips = strategy === 'Always' || strategy === 'Once';
  const stopped: Settle = { vmi: 'none', printable: 'Stopped', runStrategy: flips ? 'Halted' : strategy };
  return [
    { action: 'start', code: 409, message: vmConflict('VM is already running'), settle: RUNNING },
    { action: 'stop', code: 202, settle: stopped },
    strategy === 'Once'
      ? { action: 'restart', code: 409, message: vmConflict('RunStategy Once does not support manual restart requests'), settle: RUNNING }
      : { action: 'restart', code: 202, settle: { vmi: 'new', printable: 'Running', runStrategy: strategy } },
    { action: 'forceStop', code: 202, settle: stopped },
    { action: 'pause', code: 200, settle: { vmi: 'same', printable: 'Paused' } },
    { action: 'unpause', code: 409, message: vmiConflict('VMI is not paused'), settle: RUNNING },
    { action: 'migrate', code: 202, settle: { vmi: 'same', printable: 'Running' } },
  ];
}

/** Halted, Manual and RerunOnFailure at rest: no VMI. */
function stoppedRows(strategy: 'Halted' | 'Manual' | 'RerunOnFailure'): Omit<Row, 'strategy' | 'start'>[] {
  const halted = strategy === 'Halted';
  return [
    { action: 'start', code: 202, settle: { vmi: 'new', printable: 'Running', runStrategy: halted ? 'Always' : strategy } },
    { action: 'stop', code: 409, message: vmConflict('VM is not running'), settle: STOPPED_NO_VMI },
    { action: 'restart', code: 409, message: vmConflict(halted ? 'RunStategy Halted does not support manual restart requests' : 'VM is not running: Halted'), settle: STOPPED_NO_VMI },
    { action: 'forceStop', code: 409, message: vmConflict('VM is not running'), settle: STOPPED_NO_VMI },
    { action: 'pause', code: 404, message: vmiNotFound, settle: STOPPED_NO_VMI },
    { action: 'unpause', code: 404, message: vmiNotFound, settle: STOPPED_NO_VMI },
    { action: 'migrate', code: 404, message: vmiNotFound, settle: STOPPED_NO_VMI },
  ];
}

/** Once at rest: the guest shut itself down, the VMI stays in Succeeded. */
function onceStoppedRows(): Omit<Row, 'strategy' | 'start'>[] {
  const kept: Settle = { vmi: 'same', printable: 'Stopped' };
  const halted: Settle = { vmi: 'none', printable: 'Stopped', runStrategy: 'Halted' };
  return [
    { action: 'start', code: 409, message: vmConflict('Once does not support manual start requests'), settle: kept },
    { action: 'stop', code: 202, settle: halted },
    { action: 'restart', code: 409, message: vmConflict('RunStategy Once does not support manual restart requests'), settle: kept },
    { action: 'forceStop', code: 202, settle: halted },
    { action: 'pause', code: 409, message: vmiConflict('VM is not running'), settle: kept },
    { action: 'unpause', code: 409, message: vmiConflict('VMI is not running'), settle: kept },
    { action: 'migrate', code: 409, message: vmConflict('VM is not running'), settle: kept },
  ];
}

/** Every reachable resting state. Always never rests stopped and Halted never rests running (each would be another row). */
export function lifecycleTable(): Row[] {
  const rows: Row[] = [];
  const add = (strategy: Strategy, start: Start, rs: Omit<Row, 'strategy' | 'start'>[]) => rows.push(...rs.map((r) => ({ strategy, start, ...r })));
  for (const s of ['Always', 'RerunOnFailure', 'Manual', 'Once'] as const) add(s, 'running', runningRows(s));
  for (const s of ['RerunOnFailure', 'Manual', 'Halted'] as const) add(s, 'stopped', stoppedRows(s));
  add('Once', 'stopped', onceStoppedRows());
  return rows;
}

/** The guest of a stopped `Once` VM powers itself off a moment after boot. */
const POWEROFF_SCRIPT = '#!/bin/sh\nsleep 2\npoweroff\n';
const BOOT_MS = 150_000;

export const isRunning = (s: VMState) => s.printable === 'Running' && s.vmiPhase === 'Running' && s.pendingRequests === 0;

/** Creates `name` and brings it into the row's starting state; returns the state it rests in. */
export async function prepareVM(api: Endpoint, name: string, strategy: Strategy, start: Start): Promise<VMState> {
  const script = strategy === 'Once' && start === 'stopped' ? POWEROFF_SCRIPT : undefined;
  await createVM(api, demoVM(name, { runStrategy: strategy, userScript: script }));
  if (strategy === 'Manual' && start === 'running') await expectCode(callAction(api, name, 'start'), 202);
  if (start === 'running' || strategy === 'RerunOnFailure') await until(`${name} Running`, async () => isRunning(await readState(api, name)), BOOT_MS);
  if (strategy === 'RerunOnFailure' && start === 'stopped') await expectCode(callAction(api, name, 'stop'), 202);
  if (start === 'stopped') {
    const final = strategy === 'Once' ? (s: VMState) => s.vmiPhase === 'Succeeded' : (s: VMState) => !s.vmiUID;
    // settled: also the Stop request consumed (until then a start is refused: "stop/start already underway")
    await until(`${name} Stopped`, async () => { const s = await readState(api, name); return s.printable === 'Stopped' && final(s) && s.pendingRequests === 0; }, BOOT_MS);
  }
  return readState(api, name);
}

async function expectCode(reply: Promise<RestReply>, code: number): Promise<void> {
  const r = await reply;
  if (r.status !== code) throw new Error(`expected ${code}, got ${r.status} ${JSON.stringify(r.body)}`);
}

const ACTION_CALLS: Record<Action, { resource: 'virtualmachines' | 'virtualmachineinstances'; sub: string; body?: object }> = {
  start: { resource: 'virtualmachines', sub: 'start' },
  stop: { resource: 'virtualmachines', sub: 'stop' },
  restart: { resource: 'virtualmachines', sub: 'restart' },
  forceStop: { resource: 'virtualmachines', sub: 'stop', body: { gracePeriod: 0 } },
  pause: { resource: 'virtualmachineinstances', sub: 'pause' },
  unpause: { resource: 'virtualmachineinstances', sub: 'unpause' },
  migrate: { resource: 'virtualmachines', sub: 'migrate' },
};

export function callAction(api: Endpoint, name: string, action: Action): Promise<RestReply> {
  const c = ACTION_CALLS[action];
  return callRest(api, 'PUT', subresource(NS, c.resource, name, c.sub), c.body ?? {});
}

/** Whether `now` is what the row says the VM settles in (from `before`). */
export function hasSettled(want: Settle, before: VMState, now: VMState): boolean {
  if (now.printable !== want.printable || now.pendingRequests > 0) return false;
  if (want.runStrategy && now.runStrategy !== want.runStrategy) return false;
  if (want.vmi === 'none') return !now.vmiUID;
  if (want.vmi === 'same') return now.vmiUID === before.vmiUID;
  return !!now.vmiUID && now.vmiUID !== before.vmiUID && now.vmiPhase === 'Running';
}
