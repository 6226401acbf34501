import { describe, expect, it } from 'vitest';
import { computeTemplateHash, fnv32a, safeEncode } from './template-hash';

describe('pod-template-hash', () => {
  it('is FNV-32a (known vectors)', () => {
    expect(fnv32a('')).toBe(0x811c9dc5);
    expect(fnv32a('a')).toBe(0xe40c292c);
  });

  it('uses only kube’s safe alphabet (no vowels, no 0, 1, 3)', () => {
    expect(safeEncode('0123456789')).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(computeTemplateHash({ metadata: { labels: { app: 'web' } } })).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
  });

  it('does not depend on key order, changes with the template and with the collision count', () => {
    const a = computeTemplateHash({ spec: { containers: [{ name: 'c', image: 'x:1' }] }, metadata: { labels: { app: 'web' } } });
    const b = computeTemplateHash({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ image: 'x:1', name: 'c' }] } });
    expect(a).toBe(b);
    expect(computeTemplateHash({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'x:2' }] } })).not.toBe(a);
    expect(computeTemplateHash({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'x:1' }] } }, 1)).not.toBe(a);
  });
});
