import { mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { volumeFiles, VolumeSourceError, type VolumeSources } from './pod-volume-files';
import { writeVolumeAtomically } from './volume-writer';
import { makePod, withPodSpec } from './testing-builders';

const src: VolumeSources = {
  configMaps: new Map<string, V1ConfigMap | undefined>([['kube-root-ca.crt', { data: { 'ca.crt': 'PEM' } }], ['cfg', { data: { a: '1', b: '2' }, binaryData: { bin: Buffer.from([0, 1]).toString('base64') } }]]),
  secrets: new Map([['certs', { data: { 'tls.crt': Buffer.from('CRT').toString('base64'), 'tls.key': Buffer.from('KEY').toString('base64') } }]]),
  podIP: '10.0.0.9',
  hostIP: '127.0.0.1',
  token: (aud, exp) => `token-for-${aud ?? 'api'}-${exp}`,
};
const pod = makePod('web', withPodSpec({ containers: [{ name: 'c', image: 'kubevirt-ts:latest' }] }), (p) => void (p.metadata!.labels = { app: 'web' }));
const text = (files: Map<string, { content: Buffer }>) => Object.fromEntries([...files].map(([k, v]) => [k, v.content.toString()]));

describe('file volumes', () => {
  it('writes the kube-api-access projection: token, ca.crt and namespace', () => {
    const files = volumeFiles(pod, { name: 'kube-api-access-abcde', projected: { defaultMode: 0o644, sources: [
      { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }] } },
    ] } }, src);
    expect(text(files)).toEqual({ token: 'token-for-api-3607', 'ca.crt': 'PEM', namespace: 'default' });
  });

  it('maps items of a secret to paths with their modes, and every key without items', () => {
    const files = volumeFiles(pod, { name: 's', secret: { secretName: 'certs', defaultMode: 0o400, items: [{ key: 'tls.crt', path: 'certs/serving.crt', mode: 0o444 }] } }, src);
    expect(text(files)).toEqual({ 'certs/serving.crt': 'CRT' });
    expect(files.get('certs/serving.crt')?.mode).toBe(0o444);
    const all = volumeFiles(pod, { name: 'c', configMap: { name: 'cfg' } }, src);
    expect([...all.keys()].sort()).toEqual(['a', 'b', 'bin']);
    expect([...all.get('bin')!.content]).toEqual([0, 1]);
  });

  it('writes downwardAPI labels in kube\'s key="value" form', () => {
    const files = volumeFiles(pod, { name: 'd', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }, { path: 'ip', fieldRef: { fieldPath: 'status.podIP' } }] } }, src);
    expect(text(files)).toEqual({ labels: 'app="web"', ip: '10.0.0.9' });
  });

  it.each([
    [{ name: 'v', secret: { secretName: 'nope' } }, 'secret "nope" not found'],
    [{ name: 'v', configMap: { name: 'nope' } }, 'configmap "nope" not found'],
    [{ name: 'v', configMap: { name: 'cfg', items: [{ key: 'zz', path: 'zz' }] } }, 'configmap references non-existent config key: zz'],
    [{ name: 'v', configMap: { name: 'cfg', items: [{ key: 'a', path: '../escape' }] } }, 'volume "v": item path "../escape" must be relative and may not contain \'..\''],
  ])('refuses what kube refuses (%#)', (v, message) => {
    expect(() => volumeFiles(pod, v, src)).toThrow(new VolumeSourceError(message));
  });

  it('an optional missing source gives an empty volume', () => {
    expect(volumeFiles(pod, { name: 'v', secret: { secretName: 'nope', optional: true } }, src).size).toBe(0);
  });
});

describe('writeVolumeAtomically', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('switches ..data in one step and keeps the top-level links, dropping old generations', () => {
    dir = mkdtempSync(join(tmpdir(), 'kv-vol-'));
    writeVolumeAtomically(dir, new Map([['token', { content: Buffer.from('one'), mode: 0o600 }], ['ca.crt', { content: Buffer.from('PEM'), mode: 0o644 }]]));
    expect(readFileSync(join(dir, 'token'), 'utf8')).toBe('one');
    expect(readlinkSync(join(dir, 'token'))).toBe('..data/token');
    expect(statSync(join(dir, 'token')).mode & 0o777).toBe(0o600);
    writeVolumeAtomically(dir, new Map([['token', { content: Buffer.from('two'), mode: 0o600 }]]));
    expect(readFileSync(join(dir, 'token'), 'utf8')).toBe('two');
    expect(readdirSync(dir).sort()).toEqual(['..data', readlinkSync(join(dir, '..data')), 'token'].sort());
  });
});
