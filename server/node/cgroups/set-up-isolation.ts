import type { Logger } from 'pino';
import { dataPaths } from '../../data-dir';
import { nodeCpuMillis, type MachineFacts } from '../node-object';
import { milliCpuToShares } from './pod-limits';
import { detectPodCgroups } from './detect-cgroups';
import { PodIsolation } from './pod-isolation';
import { detectCpusetCgroups } from './cpuset-cgroups';

export interface IsolationSetup {
  nodeName: string;
  dataDir: string;
  machine: MachineFacts;
  nodesTotal: number;
  log: Logger;
}

/**
 * The node's cgroup (all its Pods together limited to its share of the machine's memory, like
 * kubelet's kubepods cgroup) and per-Pod isolation, or undefined with a warning where the host gives
 * us no usable cgroups (no cpu+memory controllers, no permission, v2 without delegation).
 */
export function setUpPodIsolation(s: IsolationSetup): PodIsolation | undefined {
  const cgroups = detectPodCgroups(s.nodeName, s.dataDir, dataPaths(s.dataDir).node(s.nodeName));
  if (!cgroups) {
    s.log.warn('no usable cgroup cpu/memory controllers: pods run without resource limits');
    return undefined;
  }
  try {
    // kubelet sizes kubepods' cpu.shares from the node's allocatable CPU (1024 per CPU); the local
    // nodes split the machine, so the group above them all weighs the machine's CPUs
    cgroups.setNodeLimits(
      { memoryBytes: Math.floor(s.machine.memoryBytes / Math.max(1, s.nodesTotal)), cpuShares: milliCpuToShares(nodeCpuMillis(s.machine.cpus, s.nodesTotal)) },
      { cpuShares: milliCpuToShares(s.machine.cpus * 1000) },
    );
  } catch (err) {
    s.log.warn({ err: (err as Error).message, cgroup: cgroups.describe }, 'cannot set up the node cgroup: pods run without resource limits');
    return undefined;
  }
  const cpusets = detectCpusetCgroups(s.nodeName, s.dataDir);
  s.log.info({ version: cgroups.version, cgroup: cgroups.describe, cpuset: cpusets?.describe }, 'pods get their own cgroups');
  return new PodIsolation(cgroups, s.log, cpusets);
}
