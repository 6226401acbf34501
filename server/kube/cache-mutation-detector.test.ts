import { describe, expect, it } from 'vitest';
import { guardCached } from './cache-mutation-detector';

describe('cache mutation detector (on in the test suites)', () => {
  it('is on here, so the suites run with frozen shared objects', () => {
    expect(process.env.KV_CACHE_MUTATION_DETECTOR).toBe('1');
  });

  it('a change made in place to a cached object throws where it is made, at any depth', () => {
    const vmi = guardCached({ metadata: { name: 'a', labels: { x: '1' } }, status: { phase: 'Running', conditions: [{ type: 'Ready' }] } });
    expect(() => { (vmi.status as { phase: string }).phase = 'Failed'; }).toThrow(TypeError);
    expect(() => { (vmi.metadata.labels as Record<string, string>).y = '2'; }).toThrow(TypeError);
    expect(() => { vmi.status.conditions.push({ type: 'Paused' }); }).toThrow(TypeError);
    expect(vmi.status.phase).toBe('Running');
  });

  it('a copy can be changed freely', () => {
    const vmi = guardCached({ status: { phase: 'Running' } });
    const copy = structuredClone(vmi);
    copy.status.phase = 'Failed';
    expect(copy.status.phase).toBe('Failed');
  });
});
