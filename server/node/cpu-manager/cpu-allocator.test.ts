import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { allocate, exclusiveCpuCount, freeCpus, release, sharedPool, type CpuState } from './cpu-allocator';
import { formatCpuList, parseCpuList } from '../../../lib/kubevirt/cpu-list';

const four: CpuState = { all: [0, 1, 2, 3], reserved: [0], assignments: {} };
const ok = (r: ReturnType<typeof allocate>) => {
  if ('error' in r) throw new Error(r.error);
  return r;
};

describe('static CPU allocation', () => {
  it('never hands out the reserved CPU and gives the lowest free CPUs', () => {
    const a = ok(allocate(four, 'n/a', 2));
    expect(a.cpus).toEqual([1, 2]);
    expect(freeCpus(a.state)).toEqual([3]);
    expect(sharedPool(a.state)).toEqual([0, 3]);
  });

  it('gives two Pods disjoint CPUs', () => {
    const a = ok(allocate(four, 'n/a', 1));
    const b = ok(allocate(a.state, 'n/b', 2));
    expect(a.cpus).toEqual([1]);
    expect(b.cpus).toEqual([2, 3]);
    expect(sharedPool(b.state)).toEqual([0]);
  });

  it('refuses a request larger than what is free, with kube\'s message', () => {
    const a = ok(allocate(four, 'n/a', 2));
    expect(allocate(a.state, 'n/b', 2)).toEqual({ error: 'Not enough cpus available to satisfy request: requested=2, available=1' });
  });

  it('keeps a Pod\'s CPUs when asked again (a container restart) and frees them on release', () => {
    const a = ok(allocate(four, 'n/a', 1));
    expect(ok(allocate(a.state, 'n/a', 1)).cpus).toEqual([1]);
    const freed = release(a.state, 'n/a');
    expect(freeCpus(freed)).toEqual([1, 2, 3]);
    expect(release(freed, 'n/a')).toBe(freed);
  });

  it('on a 2-CPU host one dedicated CPU fits and a second does not', () => {
    const two: CpuState = { all: [0, 1], reserved: [0], assignments: {} };
    const a = ok(allocate(two, 'n/a', 1));
    expect(a.cpus).toEqual([1]);
    expect('error' in allocate(a.state, 'n/b', 1)).toBe(true);
  });
});

const pod = (res: Record<string, { requests?: Record<string, string>; limits?: Record<string, string> }>): V1Pod =>
  ({ spec: { containers: Object.entries(res).map(([name, resources]) => ({ name, resources })) } }) as V1Pod;

describe('exclusiveCpuCount (Guaranteed Pods with whole CPUs)', () => {
  it.each([
    ['Guaranteed, 2 CPUs', pod({ c: { requests: { cpu: '2', memory: '1Gi' }, limits: { cpu: '2', memory: '1Gi' } } }), 2],
    ['limits only (requests default to them)', pod({ c: { limits: { cpu: '1', memory: '1Gi' } } }), 1],
    ['fractional CPU', pod({ c: { limits: { cpu: '1500m', memory: '1Gi' } } }), 0],
    ['Burstable: request below limit', pod({ c: { requests: { cpu: '1', memory: '512Mi' }, limits: { cpu: '1', memory: '1Gi' } } }), 0],
    ['no memory limit', pod({ c: { limits: { cpu: '1' } } }), 0],
    ['BestEffort', pod({ c: {} }), 0],
    ['the launcher Pod: compute gets its CPU, the 5m console-log container stays shared', pod({ compute: { limits: { cpu: '1', memory: '1Gi' } }, 'guest-console-log': { limits: { cpu: '5m', memory: '35M' } } }), 1],
    ['a Burstable sidecar makes the Pod Burstable', pod({ compute: { limits: { cpu: '1', memory: '1Gi' } }, log: { requests: { cpu: '5m' } } }), 0],
  ])('%s → %i', (_n, p, want) => expect(exclusiveCpuCount(p)).toBe(want));
});

describe('CPU lists', () => {
  it.each([['0', [0]], ['0-3', [0, 1, 2, 3]], ['0,2-3,7', [0, 2, 3, 7]], ['', []]])('%s', (text, cpus) => {
    expect(parseCpuList(text)).toEqual(cpus);
    expect(formatCpuList(cpus)).toBe(text);
  });

  it('refuses garbage', () => expect(() => parseCpuList('a-b')).toThrow(/bad CPU list/));
});
