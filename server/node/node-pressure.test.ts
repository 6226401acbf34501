import { statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { evaluatePressure, parseMemAvailable, pressureConditions, readPressureFigures, withPressureTaints } from './node-pressure';
import { findUntoleratedTaint } from './taints';
import { makeNode, makePod } from './testing-builders';

const MI = 2 ** 20;

describe('node pressure (kubelet default eviction thresholds)', () => {
  it('MemoryPressure below 100Mi available, not at it', () => {
    expect(evaluatePressure({ memoryAvailableBytes: 100 * MI - 1 }).memory).toBe(true);
    expect(evaluatePressure({ memoryAvailableBytes: 100 * MI }).memory).toBe(false);
  });

  it('DiskPressure below 10% of the data dir filesystem available', () => {
    expect(evaluatePressure({ nodefsAvailableBytes: 99, nodefsCapacityBytes: 1000 }).disk).toBe(true);
    expect(evaluatePressure({ nodefsAvailableBytes: 100, nodefsCapacityBytes: 1000 }).disk).toBe(false);
    expect(evaluatePressure({})).toEqual({ memory: false, disk: false });
  });

  it('reads MemAvailable and the real figures of a directory', () => {
    expect(parseMemAvailable('MemTotal:       24684292 kB\nMemFree:  1 kB\nMemAvailable:   2048 kB\n')).toBe(2 * MI);
    const f = readPressureFigures(tmpdir());
    const st = statfsSync(tmpdir());
    expect(f.nodefsCapacityBytes).toBe(st.blocks * st.bsize);
    expect(f.memoryAvailableBytes).toBeGreaterThan(0);
  });

  it('conditions carry kubelet reasons; taints follow them and keep the others', () => {
    expect(pressureConditions({ memory: true, disk: false }).map((c) => [c.type, c.status, c.reason])).toEqual([
      ['MemoryPressure', 'True', 'KubeletHasInsufficientMemory'],
      ['DiskPressure', 'False', 'KubeletHasNoDiskPressure'],
    ]);
    const user = { key: 'team', value: 'a', effect: 'NoSchedule' };
    expect(withPressureTaints([user], { memory: true, disk: true })).toEqual([
      user,
      { key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/disk-pressure', effect: 'NoSchedule' },
    ]);
    expect(withPressureTaints([user, { key: 'node.kubernetes.io/disk-pressure', effect: 'NoSchedule' }], { memory: false, disk: false })).toEqual([user]);
  });

  it('the scheduler avoids a node reporting DiskPressure unless the pod tolerates it', () => {
    const node = makeNode('n', (n) => void n.status!.conditions!.push({ type: 'DiskPressure', status: 'True' }));
    expect(findUntoleratedTaint(makePod('p'), node)?.key).toBe('node.kubernetes.io/disk-pressure');
    const tolerant = makePod('t', (p) => void (p.spec!.tolerations = [{ key: 'node.kubernetes.io/disk-pressure', operator: 'Exists' }]));
    expect(findUntoleratedTaint(tolerant, node)).toBeUndefined();
  });
});
