import { describe, expect, it } from 'vitest';
import { formatLabelSelector } from './networkpolicy-columns';
import { renderTable } from './table';

const NOW = Date.parse('2026-01-01T00:10:00Z');
const created = '2026-01-01T00:00:00Z';

describe('NetworkPolicy table', () => {
  it('prints NAME POD-SELECTOR AGE like kubectl', () => {
    const np = (name: string, podSelector: unknown) => ({ metadata: { name, creationTimestamp: created }, spec: { podSelector } });
    const t = renderTable(undefined, [np('deny-all', {}), np('web', { matchLabels: { app: 'web' } })], { includeObject: 'None', listMeta: {}, kind: 'NetworkPolicy', now: NOW });
    expect(t.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Pod-Selector', 'Age']);
    expect(t.rows.map((r: { cells: unknown[] }) => r.cells)).toEqual([['deny-all', '<none>', '10m'], ['web', 'app=web', '10m']]);
  });

  it.each([
    [{}, '<none>'],
    [{ matchLabels: { tier: 'db', app: 'x' } }, 'app=x,tier=db'],
    [{ matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'dev'] }, { key: 'canary', operator: 'DoesNotExist' }] }, '!canary,env in (dev,prod)'],
    [{ matchLabels: { b: '1' }, matchExpressions: [{ key: 'a', operator: 'Exists' }, { key: 'c', operator: 'NotIn', values: ['x'] }] }, 'a,b=1,c notin (x)'],
    [{ matchExpressions: [{ key: 'a', operator: 'Near' }] }, '<error>'],
  ])('formats %j as %s', (sel, expected) => expect(formatLabelSelector(sel)).toBe(expected));
});
