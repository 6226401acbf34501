import { describe, expect, it } from 'vitest';
import { removeCondition, setCondition } from './conditions';
import type { Condition } from './meta';

const t0 = new Date('2026-01-01T00:00:00Z');
const t1 = new Date('2026-01-01T00:01:00Z');
const ready = (status: 'True' | 'False', reason?: string): Omit<Condition, 'lastTransitionTime' | 'lastProbeTime'> => ({ type: 'Ready', status, reason });

describe('setCondition', () => {
  it('adds a missing condition stamped with now', () => {
    expect(setCondition(undefined, ready('True'), t0)).toEqual([{ type: 'Ready', status: 'True', reason: undefined, lastProbeTime: null, lastTransitionTime: t0.toISOString() }]);
  });
  it('returns the same list when nothing changed, so callers can skip the write', () => {
    const list = setCondition([], ready('True'), t0);
    expect(setCondition(list, ready('True'), t1)).toBe(list);
  });
  it('keeps lastTransitionTime when only the reason changes', () => {
    const list = setCondition([], ready('False', 'A'), t0);
    expect(setCondition(list, ready('False', 'B'), t1)[0]).toMatchObject({ reason: 'B', lastTransitionTime: t0.toISOString() });
  });
  it('moves lastTransitionTime when the status flips', () => {
    const list = setCondition([], ready('False'), t0);
    expect(setCondition(list, ready('True'), t1)[0].lastTransitionTime).toBe(t1.toISOString());
  });
});

describe('removeCondition', () => {
  it('drops only the named type', () => {
    const list = setCondition(setCondition([], ready('True'), t0), { type: 'Paused', status: 'True' }, t0);
    expect(removeCondition(list, 'Paused').map((c) => c.type)).toEqual(['Ready']);
  });
});
