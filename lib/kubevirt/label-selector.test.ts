import { describe, expect, it } from 'vitest';
import { labelSelectorError, selectorMatches, selectorString } from './label-selector';

describe('label selectors', () => {
  it.each([
    [{ matchLabels: { a: '1' } }, { a: '1', b: '2' }, true],
    [{ matchLabels: { a: '1' } }, { a: '2' }, false],
    [{}, { a: '1' }, true],
    [undefined, { a: '1' }, false],
    [{ matchExpressions: [{ key: 'a', operator: 'In', values: ['1', '2'] }] }, { a: '2' }, true],
    [{ matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['1'] }] }, {}, true],
    [{ matchExpressions: [{ key: 'a', operator: 'Exists' }] }, {}, false],
    [{ matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }, {}, true],
    [{ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }, { a: '2' }, false],
  ])('%j matches %j: %s', (sel, labels, want) => {
    expect(selectorMatches(sel, labels)).toBe(want);
  });

  it('prints requirements sorted by key, as kube does', () => {
    expect(selectorString({ matchLabels: { z: '1', a: 'x' }, matchExpressions: [{ key: 'm', operator: 'NotIn', values: ['b', 'a'] }, { key: 'n', operator: 'DoesNotExist' }, { key: 'e', operator: 'Exists' }] }))
      .toBe('a=x,e,m notin (a,b),!n,z=1');
    expect(selectorString({})).toBe('');
  });

  it('refuses what LabelSelectorAsSelector refuses, with its messages', () => {
    expect(labelSelectorError({ matchExpressions: [{ key: 'a', operator: 'Foo' }] })).toBe('"Foo" is not a valid label selector operator');
    expect(labelSelectorError({ matchExpressions: [{ key: 'a', operator: 'In' }] })).toBe("for 'in', 'notin' operators, values set can't be empty");
    expect(labelSelectorError({ matchLabels: { a: 'b' } })).toBeUndefined();
  });
});

describe('sameJSON', () => {
  it('ignores key order and undefined members, not values', async () => {
    const { sameJSON } = await import('./same-json');
    expect(sameJSON({ a: 1, b: { c: [1, { d: 2 }] } }, { b: { c: [1, { d: 2 }] }, a: 1, e: undefined })).toBe(true);
    expect(sameJSON({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(sameJSON({ a: null }, {})).toBe(false);
  });
});
