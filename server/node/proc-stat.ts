import { readFileSync } from 'node:fs';

/**
 * A process's start time in clock ticks since boot (/proc/<pid>/stat field 22). Together with the
 * pid it identifies a process across kubelet restarts: a recycled pid has a different start time.
 */
export function readProcessStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm (field 2) may contain spaces and parentheses: fields after the last ')' are fixed
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = rest[0];
    if (state === 'Z' || state === 'X') return undefined; // a zombie is gone for our purposes
    return rest[19]; // field 22 = index 19 after state (field 3)
  } catch {
    return undefined;
  }
}

/** True when `pid` is alive and is still the process that started at `startTime`. */
export function isSameProcessAlive(pid: number, startTime: string): boolean {
  return readProcessStartTime(pid) === startTime;
}

/** Signal a whole process group (pod processes run detached, pgid = pid); false if it is gone. */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}
