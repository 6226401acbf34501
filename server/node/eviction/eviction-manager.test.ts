import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { makePod, withRequests } from '../testing-builders';
import { EvictionManager, type RunningPod } from './eviction-manager';
import { diskUsageOf } from './pod-usage';
import { parseEvictionHard, type Observations } from './thresholds';

const GI = 2 ** 30;
const withPriority = (priority: number) => (p: V1Pod) => void (p.spec!.priority = priority);

function manager(pods: V1Pod[], obs: Observations, spec: string, refuse: string[] = []) {
  const evicted: [string, string][] = [];
  const published: number[] = [];
  const running: RunningPod[] = pods.map((p) => ({ uid: p.metadata!.uid!, key: `default/${p.metadata!.name}`, dir: '/nonexistent', pids: [process.pid] }));
  const m = new EvictionManager({
    thresholds: () => parseEvictionHard(spec),
    observe: () => obs,
    running: () => running,
    podOf: (key) => pods.find((p) => `default/${p.metadata!.name}` === key),
    evict: (pod, message) => {
      if (refuse.includes(pod.metadata!.name!)) return false;
      evicted.push([pod.metadata!.name!, message]);
      return true;
    },
    reportPressure: async () => void published.push(evicted.length),
    log: pino({ level: 'silent' }),
  });
  return { m, evicted, published };
}

describe('eviction manager pass', () => {
  const bestEffort = makePod('be');
  const big = makePod('big-request', withRequests({ memory: '100Gi' }));

  it('evicts nothing while no threshold is crossed', async () => {
    const { m, evicted, published } = manager([bestEffort], { 'memory.available': { available: 8 * GI } }, 'memory.available<100Mi');
    expect(await m.pass()).toBeUndefined();
    expect(evicted).toEqual([]);
    expect(published).toEqual([]);
  });

  it('evicts exactly one Pod per pass, the first ranked, after publishing the pressure', async () => {
    const { m, evicted, published } = manager([big, bestEffort], { 'memory.available': { available: 1 } }, 'memory.available<100Mi');
    expect(await m.pass()).toBe('default/be');
    expect(evicted.map(([n]) => n)).toEqual(['be']);
    expect(evicted[0][1]).toMatch(/^The node was low on resource: memory\. Threshold quantity: 100Mi, available: 1\. Container c was using \d+Ki, request is 0/);
    expect(published).toEqual([0]); // before the eviction
  });

  it('takes the next candidate when the first no longer runs, and never a critical Pod', async () => {
    const critical = makePod('critical', withPriority(2_000_000_000));
    const { m, evicted } = manager([critical, bestEffort, big], { 'memory.available': { available: 1 } }, 'memory.available<100Mi', ['be']);
    expect(await m.pass()).toBe('default/big-request');
    const only = manager([critical], { 'memory.available': { available: 1 } }, 'memory.available<100Mi');
    expect(await only.m.pass()).toBeUndefined();
    expect(evicted.map(([n]) => n)).toEqual(['big-request']);
  });

  it('reclaims memory before disk when both are crossed', async () => {
    const { m, evicted } = manager([bestEffort], { 'memory.available': { available: 1 }, 'nodefs.available': { available: 1, capacity: 100 } }, 'nodefs.available<10%,memory.available<100Mi');
    await m.pass();
    expect(evicted[0][1]).toMatch(/^The node was low on resource: memory\./);
  });
});

describe('pod disk usage', () => {
  it('counts the blocks a directory tree holds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'evict-du-'));
    try {
      writeFileSync(join(dir, 'a'), Buffer.alloc(1 << 20, 1));
      expect(diskUsageOf(dir)).toBeGreaterThanOrEqual(1 << 20);
      expect(diskUsageOf(join(dir, 'missing'))).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
