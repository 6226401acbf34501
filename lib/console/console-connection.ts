/**
 * What a VNC/serial console does after its socket closes: reconnect by itself (reboot, blip,
 * migration — no retry cap), or wait for the user when another session took over, so two tabs
 * never fight. Close codes: 4001 = replaced by a newer session (virt-handler), 4000+HTTP status =
 * the API server refused the stream (the console proxy), 4409 with preserveSession = a session is open.
 */

export type ConsoleState =
  | { kind: 'connecting'; attempt: number }
  | { kind: 'connected' }
  | { kind: 'reconnecting'; attempt: number; inMs: number; why: string }
  | { kind: 'taken-over' }
  | { kind: 'busy'; why: string }
  | { kind: 'forbidden'; why: string }
  | { kind: 'closed' };

export const CLOSE_REPLACED = 4001;
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 5_000;

export function backoffMs(attempt: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.max(0, attempt - 1));
}

/** The state after a close, given how many reconnects already failed in a row. */
export function afterClose(code: number, reason: string, opts: { attempt: number; preserveSession: boolean; userClosed: boolean }): ConsoleState {
  if (opts.userClosed) return { kind: 'closed' };
  if (code === CLOSE_REPLACED) return { kind: 'taken-over' };
  if (code === 4409 && opts.preserveSession && /session/i.test(reason)) return { kind: 'busy', why: reason };
  if (code === 4401 || code === 4403) return { kind: 'forbidden', why: reason || 'You may not open this console.' };
  const attempt = opts.attempt + 1;
  const why = code >= 4400 && code < 4600 ? reason || `refused (${code - 4000})` : 'connection lost';
  return { kind: 'reconnecting', attempt, inMs: backoffMs(attempt), why };
}

export function describeConsoleState(s: ConsoleState): string {
  switch (s.kind) {
    case 'connecting': return s.attempt > 0 ? `Reconnecting (attempt ${s.attempt})…` : 'Connecting…';
    case 'connected': return 'Connected';
    case 'reconnecting': return `${s.why} — reconnecting in ${Math.ceil(s.inMs / 1000)} s (attempt ${s.attempt})`;
    case 'taken-over': return 'Another session took over this console.';
    case 'busy': return `Someone else has this console open. ${s.why}`;
    case 'forbidden': return s.why;
    case 'closed': return 'Disconnected';
  }
}
