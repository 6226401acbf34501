import { readFileSync, statfsSync } from 'node:fs';
import type { V1NodeCondition, V1Taint } from '@kubernetes/client-node';
import { DEFAULT_EVICTION_HARD, parseEvictionHard, thresholdsMet, type EvictionThreshold, type Observations } from './eviction/thresholds';

export const TAINT_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure';
export const TAINT_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure';

/** What the eviction manager looks at: free memory and the data dir's filesystem. */
export interface PressureFigures {
  memoryAvailableBytes?: number;
  nodefsAvailableBytes?: number;
  nodefsCapacityBytes?: number;
}

export interface Pressure {
  memory: boolean;
  disk: boolean;
}

/** /proc/meminfo's MemAvailable in bytes (what kubelet's memory.available starts from). */
export function parseMemAvailable(meminfo: string): number | undefined {
  const m = /^MemAvailable:\s+(\d+) kB$/m.exec(meminfo);
  return m ? Number(m[1]) * 1024 : undefined;
}

export function readPressureFigures(dataDir: string): PressureFigures {
  const out: PressureFigures = {};
  try {
    out.memoryAvailableBytes = parseMemAvailable(readFileSync('/proc/meminfo', 'utf8'));
  } catch {
    // no /proc: no memory signal
  }
  try {
    const st = statfsSync(dataDir);
    out.nodefsAvailableBytes = st.bavail * st.bsize;
    out.nodefsCapacityBytes = st.blocks * st.bsize;
  } catch {
    // data dir unreadable: no disk signal
  }
  return out;
}

/** The figures as the eviction manager's signal observations (eviction/thresholds.ts). */
export function observationsOf(f: PressureFigures): Observations {
  const obs: Observations = {};
  if (f.memoryAvailableBytes !== undefined) obs['memory.available'] = { available: f.memoryAvailableBytes };
  if (f.nodefsAvailableBytes !== undefined) obs['nodefs.available'] = { available: f.nodefsAvailableBytes, capacity: f.nodefsCapacityBytes };
  return obs;
}

const DEFAULT_THRESHOLDS = parseEvictionHard(DEFAULT_EVICTION_HARD);

/** Which thresholds are crossed (kubelet's defaults unless given); a missing figure never signals pressure. */
export function evaluatePressure(f: PressureFigures, thresholds: EvictionThreshold[] = DEFAULT_THRESHOLDS): Pressure {
  const met = thresholdsMet(thresholds, observationsOf(f));
  return { memory: met.some((t) => t.signal === 'memory.available'), disk: met.some((t) => t.signal === 'nodefs.available') };
}

type Condition = Pick<V1NodeCondition, 'type' | 'status' | 'reason' | 'message'>;

/** The MemoryPressure and DiskPressure conditions with kubelet's reasons and messages. */
export function pressureConditions(p: Pressure): Condition[] {
  return [
    p.memory
      ? { type: 'MemoryPressure', status: 'True', reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available' }
      : { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
    p.disk
      ? { type: 'DiskPressure', status: 'True', reason: 'KubeletHasDiskPressure', message: 'kubelet has disk pressure' }
      : { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
  ];
}

/**
 * The node's taints with the pressure taints set as the node lifecycle controller sets them
 * (TaintNodesByCondition: NoSchedule while the condition is True); other taints are kept as they are.
 */
export function withPressureTaints(taints: V1Taint[] | undefined, p: Pressure): V1Taint[] {
  const kept = (taints ?? []).filter((t) => t.key !== TAINT_MEMORY_PRESSURE && t.key !== TAINT_DISK_PRESSURE);
  if (p.memory) kept.push({ key: TAINT_MEMORY_PRESSURE, effect: 'NoSchedule' });
  if (p.disk) kept.push({ key: TAINT_DISK_PRESSURE, effect: 'NoSchedule' });
  return kept;
}

/** Whether the node's current conditions already say what `p` says. */
export function pressureMatches(conditions: V1NodeCondition[] | undefined, p: Pressure): boolean {
  const is = (type: string) => conditions?.find((c) => c.type === type)?.status === 'True';
  return is('MemoryPressure') === p.memory && is('DiskPressure') === p.disk;
}
