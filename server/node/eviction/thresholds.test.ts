import { describe, expect, it } from 'vitest';
import { DEFAULT_EVICTION_HARD, parseEvictionHard, thresholdsMet, thresholdMetText } from './thresholds';
import { evaluatePressure } from '../node-pressure';
import { memoryUsageOf, parseVmRss } from './pod-usage';

const MI = 2 ** 20;

describe('--eviction-hard', () => {
  it('parses quantities and percentages, kubelet defaults included', () => {
    expect(parseEvictionHard(DEFAULT_EVICTION_HARD)).toEqual([
      { signal: 'memory.available', quantity: 100 * MI, text: '100Mi' },
      { signal: 'nodefs.available', percentage: 0.1, text: '10%' },
    ]);
    expect(parseEvictionHard(' memory.available<1Gi ')).toEqual([{ signal: 'memory.available', quantity: 2 ** 30, text: '1Gi' }]);
    expect(parseEvictionHard('')).toEqual([]);
  });

  it('refuses what kubelet refuses, with a reason', () => {
    expect(() => parseEvictionHard('memory.available>1Gi')).toThrow('only < is supported');
    expect(() => parseEvictionHard('pid.available<10')).toThrow('unsupported eviction signal pid.available');
    expect(() => parseEvictionHard('memory.available<lots')).toThrow('not a quantity or a percentage');
    expect(() => parseEvictionHard('nodefs.available<0%')).toThrow('> 0% and <= 100%');
    expect(() => parseEvictionHard('nodefs.available<101%')).toThrow('> 0% and <= 100%');
    expect(() => parseEvictionHard('memory.available<1Gi,memory.available<2Gi')).toThrow('duplicate');
    expect(() => parseEvictionHard('memory.available')).toThrow('expected <signal><operator><value>');
  });

  it('is met strictly below the value; a percentage needs the capacity', () => {
    const t = parseEvictionHard('memory.available<100Mi,nodefs.available<10%');
    expect(thresholdsMet(t, { 'memory.available': { available: 100 * MI } })).toEqual([]);
    expect(thresholdsMet(t, { 'memory.available': { available: 100 * MI - 1 } }).map((x) => x.signal)).toEqual(['memory.available']);
    expect(thresholdsMet(t, { 'nodefs.available': { available: 1 } })).toEqual([]);
    expect(thresholdsMet(t, { 'nodefs.available': { available: 99, capacity: 1000 } }).map((x) => x.signal)).toEqual(['nodefs.available']);
    expect(thresholdMetText(t[1], { available: 99 * MI, capacity: 1000 * MI })).toBe('Threshold quantity: 100Mi, available: 99Mi. ');
  });

  it('node conditions follow configured thresholds (a threshold above what the node has: pressure)', () => {
    expect(evaluatePressure({ memoryAvailableBytes: 8 * 2 ** 30 }, parseEvictionHard('memory.available<1000Ti'))).toEqual({ memory: true, disk: false });
    expect(evaluatePressure({ memoryAvailableBytes: 50 * MI }, [])).toEqual({ memory: false, disk: false });
  });
});

describe('pod memory usage', () => {
  it('reads VmRSS, and this process uses some', () => {
    expect(parseVmRss('Name:\tx\nVmRSS:\t    2048 kB\n')).toBe(2 * MI);
    expect(parseVmRss('Name:\tkthreadd\n')).toBe(0);
    expect(memoryUsageOf([process.pid])).toBeGreaterThan(10 * MI);
    expect(memoryUsageOf([2 ** 30])).toBeUndefined();
  });
});
