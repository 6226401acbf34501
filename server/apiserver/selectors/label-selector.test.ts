import { describe, expect, it } from 'vitest';
import { SelectorError, labelSelectorFromObject, matchLabels, parseLabelSelector } from './index';

const labels = { app: 'web', tier: 'fe', 'kubevirt.io/domain': 'vm1', gen: '3' };

describe('parseLabelSelector + matchLabels', () => {
  it.each([
    ['', true],
    ['app=web', true],
    ['app==web', true],
    ['app=db', false],
    ['app!=db', true],
    ['missing!=x', true],
    ['app in (web,db)', true],
    ['app in (db)', false],
    ['app notin (db, cache)', true],
    ['app notin (web)', false],
    ['missing notin (x)', true],
    ['tier', true],
    ['missing', false],
    ['!missing', true],
    ['!tier', false],
    ['kubevirt.io/domain=vm1', true],
    ['app=web,tier=fe', true],
    ['app=web, tier=be', false],
    ['gen>2', true],
    ['gen<3', false],
    ['x in (in,notin)', false],
    ['app=web,!missing,tier in (fe)', true],
  ])('%j → %s', (sel, expected) => {
    expect(matchLabels(parseLabelSelector(sel), labels)).toBe(expected);
  });

  it('treats missing labels as an empty set', () => {
    expect(matchLabels(parseLabelSelector('!a'), undefined)).toBe(true);
    expect(matchLabels(parseLabelSelector('a'), undefined)).toBe(false);
  });

  it.each([
    ['app=', "app="],
    ['empty in set', 'a in ()'],
  ])('accepts %s', (_n, sel) => {
    expect(() => parseLabelSelector(sel)).not.toThrow();
  });

  it.each([
    ['a in b', "unable to parse requirement: found 'b' expected: '('"],
    ['a in (b', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    ['a=b,', "found '', expected: identifier after ','"],
    ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['a>b', "for 'Gt', 'Lt' operators, the value must be an integer"],
    ['-a=b', 'name part must consist of alphanumeric characters'],
    ['a=-b', 'a valid label must be an empty string'],
    ['a/b/c=d', 'qualified name'],
    ['a=!', "unable to parse requirement: found '!', expected: identifier"],
  ])('rejects %j with kube\'s message', (sel, message) => {
    expect(() => parseLabelSelector(sel)).toThrow(SelectorError);
    expect(() => parseLabelSelector(sel)).toThrow(message);
  });
});

describe('labelSelectorFromObject', () => {
  it.each([
    ['null matches nothing', null, false],
    ['{} matches everything', {}, true],
    ['matchLabels', { matchLabels: { app: 'web' } }, true],
    ['matchLabels mismatch', { matchLabels: { app: 'db' } }, false],
    ['In', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['fe', 'be'] }] }, true],
    ['NotIn', { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['fe'] }] }, false],
    ['Exists', { matchExpressions: [{ key: 'gen', operator: 'Exists' }] }, true],
    ['DoesNotExist', { matchExpressions: [{ key: 'gen', operator: 'DoesNotExist' }] }, false],
    ['both must hold', { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'x', operator: 'Exists' }] }, false],
  ])('%s', (_n, sel, expected) => {
    expect(matchLabels(labelSelectorFromObject(sel), labels)).toBe(expected);
  });

  it.each([
    [{ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }, 'is not a valid label selector operator'],
    [{ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, "values set can't be empty"],
    [{ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, 'values set must be empty'],
  ])('rejects %j', (sel, message) => {
    expect(() => labelSelectorFromObject(sel)).toThrow(message);
  });
});
