import { describe, expect, it } from 'vitest';
import { decodePathSegment, parseRequestTarget, requestPathname } from './request-target';

describe('request targets from hostile clients', () => {
  it.each([
    ['/%', '/%'],
    ['/api/v1/namespaces/%zz', '/api/v1/namespaces/%zz'],
    ['/healthz?x=%', '/healthz'],
    [undefined, '/'],
  ])('%s parses to pathname %s', (target, pathname) => {
    expect(requestPathname(target)).toBe(pathname);
  });

  it.each(['//[', '//a:b@', '//%', '//x:99999/', 'http://['])('%s is no target (a 400, not a throw)', (target) => {
    expect(parseRequestTarget(target)).toBeUndefined();
  });

  it.each([['a%20b', 'a b'], ['%E2%9C%93', '✓'], ['%', undefined], ['%zz', undefined], ['%C3', undefined]])('segment %s decodes to %s', (segment, want) => {
    expect(decodePathSegment(segment)).toBe(want);
  });
});
