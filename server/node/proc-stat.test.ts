import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../kube/testing/wait-for';
import { isSameProcessAlive, readProcessStartTime, signalProcessGroup } from './proc-stat';

describe('proc-stat', () => {
  it('identifies a live process by pid and start time, and not after it exits', async () => {
    const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    const exited = new Promise((r) => child.on('exit', r));
    const start = readProcessStartTime(child.pid!);
    expect(start).toMatch(/^\d+$/);
    expect(isSameProcessAlive(child.pid!, start!)).toBe(true);
    expect(isSameProcessAlive(child.pid!, String(Number(start) + 1))).toBe(false);
    expect(signalProcessGroup(child.pid!, 'SIGKILL')).toBe(true);
    await exited;
    await waitFor(() => !isSameProcessAlive(child.pid!, start!));
  });

  it('reads our own start time even though comm is parenthesised', () => {
    expect(readProcessStartTime(process.pid)).toMatch(/^\d+$/);
  });
});
