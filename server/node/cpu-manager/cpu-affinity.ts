/** CPU affinity of container processes (taskset): how the kubelet applies the CPU manager's sets. */
import { spawnSync } from 'node:child_process';
import { formatCpuList } from '../../../lib/kubevirt/cpu-list';

/** `file args` run on these CPUs only (taskset execs in place: same pid); what it starts inherits them. */
export function withCpuAffinity(cpus: number[], file: string, args: string[]): { file: string; args: string[] } {
  if (cpus.length === 0) return { file, args };
  return { file: 'taskset', args: ['--cpu-list', formatCpuList(cpus), file, ...args] };
}

/** Move running processes (every thread) onto these CPUs; false where taskset failed (process gone). */
export function setCpuAffinity(pids: number[], cpus: number[]): boolean {
  let ok = true;
  for (const pid of pids) {
    const r = spawnSync('taskset', ['--all-tasks', '--pid', '--cpu-list', formatCpuList(cpus), String(pid)], { stdio: 'ignore', timeout: 5000 });
    ok = r.status === 0 && ok;
  }
  return ok;
}
