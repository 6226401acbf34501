import { readdirSync, readFileSync } from 'node:fs';
import type { V1Pod } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { ContainerExit } from '../pod-runtime';
import type { PodCgroups } from './pod-cgroups';
import { podLimits } from './pod-limits';
import type { CpusetCgroups } from './cpuset-cgroups';

/** the wrapper's $0: what /proc/PID/cmdline shows until it has joined and exec'd the command */
const JOIN_ARGV0 = 'kv-cgroup-join';
/** `sh -c` script of joiningCommand: $1 = how many cgroup.procs files follow, then the command */
const JOIN_THEN_EXEC = 'n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 126; shift; n=$((n - 1)); done; exec "$@"';
const REMOVE_RETRY_MS = 200;
const REMOVE_ATTEMPTS = 25;

/**
 * Whether `pid` is still the joining wrapper (it has not yet written itself into the Pod's cgroup
 * and exec'd the command). Until then the kubelet neither reports the container Running nor
 * signals it: a SIGTERM would reach the wrapper, not the command's own handler, and a Running
 * container would not yet be in its cgroup (runc, too, reports a container started only after
 * its init has joined and exec'd).
 */
export function isStillJoining(pid: number): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return argv[0] === '/bin/sh' && argv[1] === '-c' && argv[3] === JOIN_ARGV0;
  } catch {
    return false; // exited: nothing to wait for
  }
}

/** Pids whose process group is `pgid` (a pod's container runs detached: pgid = its pid). */
export function processGroupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) out.push(Number(name)); // field 5 (pgrp) = index 2 after state
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/**
 * The kubelet's side of Pod cgroups: created with the Pod's limits before its container starts,
 * joined right after spawn, read for OOM kills when the container ends, removed with the Pod.
 */
export class PodIsolation {
  constructor(
    readonly cgroups: PodCgroups,
    private readonly log: Logger,
    /** the CPU manager's cpuset cgroups (cpuset-cgroups.ts); undefined where the host has no cpuset */
    private readonly cpusets?: CpusetCgroups,
  ) {}

  /** The Pod's processes on these CPUs only (its cpuset cgroup); false where that failed (affinity stays). */
  placeCpus(uid: string, pid: number, cpus: string): boolean {
    if (!this.cpusets) return false;
    try {
      this.cpusets.place(uid, processGroupMembers(pid), cpus);
      return true;
    } catch (err) {
      this.log.warn({ uid, cpus, err: (err as Error).message }, 'cannot set the pod\'s cpuset cgroup; its CPU affinity stands alone');
      return false;
    }
  }

  private removeAll(uid: string): boolean {
    const a = this.cgroups.remove(uid);
    const b = this.cpusets?.remove(uid) ?? true;
    return a && b;
  }

  /**
   * Create/update the Pod's cgroup; throws (the container must not start unconfined). Returns its
   * OOM-kill count so far: the baseline for this container (the cgroup outlives restarts).
   */
  prepare(pod: V1Pod): number {
    const uid = pod.metadata!.uid!;
    this.cgroups.ensure(uid, podLimits(pod));
    return this.cgroups.oomKills(uid);
  }

  /**
   * The container's command, made to join the Pod's cgroup itself before it runs: a fixed `sh`
   * script writes its own pid to each `cgroup.procs` and then execs the command (same pid, the
   * arguments passed through untouched, as runc joins before exec). Nothing the container forks can
   * start outside, and the kubelet need not look for such processes afterwards (`join`'s scan of
   * /proc, ~15 ms per Pod in the shared control-plane process). A write that fails ends the
   * container with 126 before its command runs.
   */
  joiningCommand(uid: string, file: string, args: string[]): { file: string; args: string[] } {
    const files = this.cgroups.procsFiles(uid);
    return { file: '/bin/sh', args: ['-c', JOIN_THEN_EXEC, JOIN_ARGV0, String(files.length), ...files, file, ...args] };
  }

  /** kubelet's reason OOMKilled when the kernel's OOM killer struck inside the Pod's cgroup. */
  classifyExit(uid: string, exit: ContainerExit, baseline = 0): ContainerExit {
    if (exit.reason === 'StartError') return exit;
    if (this.cgroups.oomKills(uid) <= baseline) return exit;
    return { ...exit, reason: 'OOMKilled', message: exit.message };
  }

  /** Kill what is left in the Pod's cgroup and remove it, retrying while dying processes hold it. */
  release(uid: string): void {
    let attempts = 0;
    const attempt = () => {
      if (this.removeAll(uid)) return;
      if (++attempts < REMOVE_ATTEMPTS) setTimeout(attempt, REMOVE_RETRY_MS).unref();
      else this.log.warn({ uid, cgroup: this.cgroups.describe }, 'pod cgroup still busy; left for the next kubelet start');
    };
    attempt();
  }

  /** `kv up` shutdown after every Pod stopped: remove the Pod cgroups and the node's own. */
  async releaseAll(): Promise<void> {
    const all = () => [...new Set([...this.cgroups.list(), ...(this.cpusets?.list() ?? [])])];
    for (const uid of all()) this.removeAll(uid);
    for (let i = 0; i < REMOVE_ATTEMPTS; i++) {
      if (all().every((uid) => this.removeAll(uid)) && this.cgroups.removeNode() && (this.cpusets?.removeNode() ?? true)) return;
      await new Promise((r) => setTimeout(r, REMOVE_RETRY_MS));
    }
  }

  /** At kubelet start: remove Pod cgroups no Pod dir accounts for (left by a crash). */
  removeStale(knownUids: Set<string>): string[] {
    const stale = [...new Set([...this.cgroups.list(), ...(this.cpusets?.list() ?? [])])].filter((uid) => !knownUids.has(uid));
    for (const uid of stale) this.release(uid);
    if (stale.length) this.log.info({ stale }, 'removed stale pod cgroups');
    return stale;
  }
}
