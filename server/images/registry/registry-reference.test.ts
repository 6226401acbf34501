import { describe, expect, it } from 'vitest';
import { registryScheme, toRegistryReference } from './registry-reference';
import { effectivePullPolicy } from '../pull-policy';

const D = `sha256:${'b'.repeat(64)}`;

describe('toRegistryReference (docker defaults)', () => {
  it.each([
    ['alpine', 'docker.io', 'registry-1.docker.io', 'library/alpine', 'latest', 'docker.io/library/alpine:latest'],
    ['kubevirt/cirros-container-disk-demo:v1', 'docker.io', 'registry-1.docker.io', 'kubevirt/cirros-container-disk-demo', 'v1', 'docker.io/kubevirt/cirros-container-disk-demo:v1'],
    ['docker.io/busybox', 'docker.io', 'registry-1.docker.io', 'library/busybox', 'latest', 'docker.io/library/busybox:latest'],
    ['quay.io/containerdisks/fedora:41', 'quay.io', 'quay.io', 'containerdisks/fedora', '41', 'quay.io/containerdisks/fedora:41'],
    ['127.0.0.1:5000/containerdisks/demo-disk:v1', '127.0.0.1:5000', '127.0.0.1:5000', 'containerdisks/demo-disk', 'v1', '127.0.0.1:5000/containerdisks/demo-disk:v1'],
    ['localhost/disk', 'localhost', 'localhost', 'disk', 'latest', 'localhost/disk:latest'],
  ])('%s', (ref, registry, apiHost, repository, reference, canonical) => {
    expect(toRegistryReference(ref)).toMatchObject({ registry, apiHost, repository, reference, canonical });
  });

  it('asks for the digest when the reference has one (a tag beside it is ignored)', () => {
    expect(toRegistryReference(`quay.io/a/b:v1@${D}`)).toMatchObject({ reference: D, digest: D, tag: undefined, canonical: `quay.io/a/b@${D}` });
  });

  it('refuses what is not a reference', () => {
    expect(toRegistryReference('UPPER/case')).toBeUndefined();
    expect(toRegistryReference('../etc')).toBeUndefined();
  });
});

describe('registryScheme', () => {
  it.each([
    ['127.0.0.1:5000', [], 'http'], ['localhost:5000', [], 'http'], ['localhost', [], 'http'],
    ['quay.io', [], 'https'], ['reg.lan:5000', ['reg.lan:5000'], 'http'], ['reg.lan:5000', ['reg.lan'], 'http'], ['reg.lan:5000', ['other'], 'https'],
  ] as const)('%s %j → %s', (host, insecure, scheme) => {
    expect(registryScheme(host, insecure)).toBe(scheme);
  });
});

describe('effectivePullPolicy (Kubernetes defaults)', () => {
  it.each([
    ['quay.io/a/b', undefined, 'Always'], ['quay.io/a/b:latest', undefined, 'Always'], ['localhost:5000/a', undefined, 'Always'],
    ['quay.io/a/b:v1', undefined, 'IfNotPresent'], [`quay.io/a/b@${D}`, undefined, 'IfNotPresent'],
    ['quay.io/a/b:v1', 'Always', 'Always'], ['quay.io/a/b', 'Never', 'Never'], ['quay.io/a/b:v1', 'bogus', 'IfNotPresent'],
  ] as const)('%s (%s) → %s', (ref, policy, want) => {
    expect(effectivePullPolicy(ref, policy)).toBe(want);
  });
});
