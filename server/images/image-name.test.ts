import { describe, expect, it } from 'vitest';
import { imageDirName, parseImageReference } from './image-name';

describe('imageDirName', () => {
  it.each([
    ['demo', 'demo=latest'],
    ['demo:latest', 'demo=latest'],
    ['demo:v2', 'demo=v2'],
    ['quay.io/containerdisks/cirros:latest', 'quay.io+containerdisks+cirros=latest'],
    ['quay.io/containerdisks/cirros', 'quay.io+containerdisks+cirros=latest'],
    ['localhost:5000/my/disk:1.0', 'localhost=5000+my+disk=1.0'],
    ['registry.example.com/a/b_c__d-e', 'registry.example.com+a+b_c__d-e=latest'],
    [`disk@sha256:${'a'.repeat(64)}`, `disk@sha256=${'a'.repeat(64)}`],
  ])('%s → %s', (ref, dir) => {
    expect(imageDirName(ref)).toBe(dir);
  });

  it('maps demo and demo:latest to the same directory', () => {
    expect(imageDirName('demo')).toBe(imageDirName('demo:latest'));
  });

  it.each([
    [''],
    ['..'],
    ['../etc/passwd'],
    ['/etc/passwd'],
    ['a/../../b'],
    ['./demo'],
    ['demo/'],
    ['Demo'],
    ['demo:'],
    ['demo:.hidden'],
    ['demo:a/b'],
    ['demo@sha256:short'],
    ['has space'],
    ['a\\b'],
    ['x'.repeat(300)],
  ])('rejects %j', (ref) => {
    expect(imageDirName(ref)).toBeUndefined();
  });

  it('never yields a name with a path separator or a dot-only name', () => {
    for (const ref of ['a', 'a.b/c', 'host:1/x:y', 'x@sha256:' + 'b'.repeat(32)]) {
      const dir = imageDirName(ref)!;
      expect(dir).not.toMatch(/[/\\]/);
      expect(dir).not.toMatch(/^\.+$/);
    }
  });
});

describe('parseImageReference', () => {
  it('splits repository, tag and digest', () => {
    expect(parseImageReference('quay.io/org/img:v1')).toEqual({ repository: 'quay.io/org/img', tag: 'v1', digest: undefined, canonical: 'quay.io/org/img:v1' });
    const digest = `sha256:${'c'.repeat(64)}`;
    expect(parseImageReference(`img:v1@${digest}`)?.canonical).toBe(`img@${digest}`);
  });
});
