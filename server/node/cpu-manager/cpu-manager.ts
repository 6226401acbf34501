/**
 * The kubelet's static CPU manager on a process node: a Guaranteed Pod with whole CPUs gets that
 * many CPUs of its own; every other Pod runs on the shared pool (all CPUs but the exclusive ones).
 * The assignments are recorded in `<data dir>/nodes/cpu_manager_state` (one file for the nodes of
 * a host, as they share its CPUs), so a kubelet restart keeps them. The kubelet applies them as the
 * container's CPU affinity (taskset), which the launcher and QEMU inherit; the launcher then pins
 * each vCPU thread to one of them.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { allocate, exclusiveCpuCount, release, sharedPool, type CpuState } from './cpu-allocator';
import { formatCpuList, parseCpuList } from '../../../lib/kubevirt/cpu-list';

interface StateFile { policyName: 'static'; reservedCpuSet: string; entries: Record<string, string> }

export interface CpuManagerOptions {
  nodeName: string;
  stateFile: string;
  /** the host's CPUs */
  cpus: number[];
  /** kubelet's --reserved-cpus; default the first CPU */
  reserved?: number[];
}

export type CpuAssignment = { cpus: number[]; exclusive: boolean } | { error: string };

export class CpuManager {
  private readonly reserved: number[];

  constructor(private readonly opts: CpuManagerOptions) {
    this.reserved = opts.reserved ?? opts.cpus.slice(0, 1);
  }

  /** Static policy needs a CPU left for everything else: on only with two CPUs or more. */
  static enabledFor(cpuCount: number): boolean {
    return cpuCount >= 2;
  }

  private key(uid: string): string {
    return `${this.opts.nodeName}/${uid}`;
  }

  private read(): CpuState {
    let entries: Record<string, string> = {};
    try {
      entries = (JSON.parse(readFileSync(this.opts.stateFile, 'utf8')) as StateFile).entries ?? {};
    } catch {
      // no state yet
    }
    const assignments = Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, parseCpuList(v)]));
    return { all: this.opts.cpus, reserved: this.reserved, assignments };
  }

  private write(s: CpuState): void {
    const file: StateFile = {
      policyName: 'static',
      reservedCpuSet: formatCpuList(this.reserved),
      entries: Object.fromEntries(Object.entries(s.assignments).map(([k, v]) => [k, formatCpuList(v)])),
    };
    mkdirSync(dirname(this.opts.stateFile), { recursive: true });
    const tmp = `${this.opts.stateFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(file, null, 2));
    renameSync(tmp, this.opts.stateFile);
  }

  /** The CPUs the Pod's container runs on: its own (recorded), or the shared pool ([] = every CPU). */
  assign(pod: V1Pod): CpuAssignment {
    const count = exclusiveCpuCount(pod);
    const state = this.read();
    if (count === 0) {
      const pool = sharedPool(state);
      return { cpus: pool.length === this.opts.cpus.length ? [] : pool, exclusive: false };
    }
    const r = allocate(state, this.key(pod.metadata!.uid!), count);
    if ('error' in r) return r;
    if (r.state !== state) this.write(r.state);
    return { cpus: r.cpus, exclusive: true };
  }

  /** The Pod is gone: its CPUs return to the shared pool. */
  release(uid: string): void {
    const state = this.read();
    const next = release(state, this.key(uid));
    if (next !== state) this.write(next);
  }

  /** Pods of this node that are gone (removed while the kubelet was down) give their CPUs back. */
  removeStale(known: Set<string>): void {
    const state = this.read();
    let next = state;
    for (const key of Object.keys(state.assignments)) {
      const [node, uid] = key.split('/');
      if (node === this.opts.nodeName && !known.has(uid)) next = release(next, key);
    }
    if (next !== state) this.write(next);
  }

  /** Whether the Pod holds CPUs of its own. */
  holds(uid: string): boolean {
    return this.key(uid) in this.read().assignments;
  }

  /** The shared pool now (for re-pinning Pods without CPUs of their own). */
  sharedPool(): number[] {
    return sharedPool(this.read());
  }
}
