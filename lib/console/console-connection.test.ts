import { describe, expect, it } from 'vitest';
import { afterClose, backoffMs, describeConsoleState } from './console-connection';

const base = { attempt: 0, preserveSession: false, userClosed: false };

describe('afterClose', () => {
  it.each([
    ['a dropped connection', 1006, '', base, 'reconnecting'],
    ['a VM that is not running (reboot, stop)', 4409, 'VMI is not running', base, 'reconnecting'],
    ['an unreachable node during migration', 4502, 'bad gateway', base, 'reconnecting'],
    ['a newer session', 4001, 'replaced', base, 'taken-over'],
    ['an open session when we asked to preserve it', 4409, 'Active VNC session', { ...base, preserveSession: true }, 'busy'],
    ['a forbidden stream', 4403, 'User "viewer" cannot get', base, 'forbidden'],
    ['the user closing it', 1000, '', { ...base, userClosed: true }, 'closed'],
  ])('%s → %s', (_n, code, reason, opts, kind) => {
    expect(afterClose(code, reason, opts).kind).toBe(kind);
  });

  it('never gives up: attempt 100 still reconnects, at most 5 s apart', () => {
    const s = afterClose(1006, '', { ...base, attempt: 100 });
    expect(s).toMatchObject({ kind: 'reconnecting', attempt: 101, inMs: 5000 });
  });

  it('backs off 0.5, 1, 2, 4, 5, 5 s', () => expect([1, 2, 3, 4, 5, 6].map(backoffMs)).toEqual([500, 1000, 2000, 4000, 5000, 5000]));

  it('shows the server\'s reason while reconnecting', () => {
    expect(describeConsoleState(afterClose(4409, 'VMI is not running', base))).toBe('VMI is not running — reconnecting in 1 s (attempt 1)');
  });
});
