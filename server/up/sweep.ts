import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Start time (clock ticks since boot) of a live process, from /proc; undefined if it is gone. */
export function processStartTime(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[19]);
  } catch {
    return undefined;
  }
}

/**
 * Last line of defence when a cluster stops: kill every pod process (and its process group:
 * the launcher and its QEMU) still recorded in a node's pod dirs. The kubelet normally did it.
 * Returns the pids it had to kill.
 */
export function sweepPodProcesses(nodesDir: string): number[] {
  const killed: number[] = [];
  if (!existsSync(nodesDir)) return killed;
  for (const node of readdirSync(nodesDir)) {
    const podsDir = join(nodesDir, node, 'pods');
    if (!existsSync(podsDir)) continue;
    for (const pod of readdirSync(podsDir)) {
      const pid = recordedLivePid(join(podsDir, pod, 'state.json'));
      if (pid === undefined) continue;
      try { process.kill(-pid, 'SIGKILL'); } catch { /* not a group leader */ }
      try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
      killed.push(pid);
    }
  }
  return killed;
}

function recordedLivePid(stateFile: string): number | undefined {
  try {
    const state = JSON.parse(readFileSync(stateFile, 'utf8'));
    const pid = Number(state.pid);
    if (!Number.isInteger(pid) || pid <= 1) return undefined;
    const start = processStartTime(pid);
    if (start === undefined) return undefined;
    if (state.startTime !== undefined && Number(state.startTime) !== start) return undefined;
    return pid;
  } catch {
    return undefined;
  }
}
