/**
 * dedicatedCpuPlacement: each vCPU thread on a CPU of its own. The kubelet's static CPU manager gave
 * this launcher's container exclusive CPUs (its affinity, inherited from the kubelet's taskset); vCPU
 * i goes to the i-th of them, as KubeVirt's converter writes libvirt's <vcpupin> from the Pod's
 * cpuset. isolateEmulatorThread: QEMU's other threads (main loop, I/O) go to the one CPU after the
 * vCPUs' (the Pod has one more for it); else they share the vCPUs' CPUs.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { QmpClient } from './qmp-client';
import { formatCpuList, parseCpuList } from '../../lib/kubevirt/cpu-list';

interface FastCPU { 'cpu-index': number; 'thread-id': number }

export interface PinPlan {
  /** thread id → CPU */
  vcpus: { tid: number; cpu: number }[];
  /** QEMU's other threads and the CPUs they may use */
  emulator: { tids: number[]; cpus: number[] };
}

/** This process's allowed CPUs (/proc/self/status Cpus_allowed_list). */
export function ownCpus(status = readFileSync('/proc/self/status', 'utf8')): number[] {
  const line = /^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1];
  return line ? parseCpuList(line) : [];
}

/** PURE: which thread goes where; an error when the Pod has fewer CPUs than it needs. */
export function planPinning(cpus: number[], vcpuThreads: number[], allThreads: number[], isolateEmulator: boolean): PinPlan | { error: string } {
  const need = vcpuThreads.length + (isolateEmulator ? 1 : 0);
  if (cpus.length < need) {
    return { error: `dedicatedCpuPlacement needs ${need} CPUs of its own, the launcher has ${cpus.length} (${formatCpuList(cpus)}): is the node's static CPU manager on?` };
  }
  const vcpus = vcpuThreads.map((tid, i) => ({ tid, cpu: cpus[i] }));
  const vcpuSet = new Set(vcpuThreads);
  const emulatorCpus = isolateEmulator ? [cpus[vcpuThreads.length]] : cpus.slice(0, vcpuThreads.length);
  return { vcpus, emulator: { tids: allThreads.filter((t) => !vcpuSet.has(t)), cpus: emulatorCpus } };
}

function threadsOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number).filter(Number.isInteger);
  } catch {
    return [];
  }
}

function setThreadAffinity(tid: number, cpus: number[]): void {
  const r = spawnSync('taskset', ['--pid', '--cpu-list', formatCpuList(cpus), String(tid)], { encoding: 'utf8', timeout: 5000 });
  if (r.status !== 0) throw new Error(`taskset ${tid} → ${formatCpuList(cpus)}: ${(r.stderr || r.error?.message || '').trim()}`);
}

/** Pins the running QEMU's vCPU threads (and its emulator threads); returns the plan it applied. */
export async function pinVcpus(qmp: QmpClient, qemuPid: number, opts: { isolateEmulatorThread: boolean; cpus?: number[] }): Promise<PinPlan> {
  const fast = await qmp.execute<FastCPU[]>('query-cpus-fast');
  const vcpuThreads = [...fast].sort((a, b) => a['cpu-index'] - b['cpu-index']).map((c) => c['thread-id']);
  const plan = planPinning(opts.cpus ?? ownCpus(), vcpuThreads, threadsOf(qemuPid), opts.isolateEmulatorThread);
  if ('error' in plan) throw new Error(plan.error);
  for (const t of plan.emulator.tids) setThreadAffinity(t, plan.emulator.cpus);
  for (const v of plan.vcpus) setThreadAffinity(v.tid, [v.cpu]);
  return plan;
}
