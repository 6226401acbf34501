import { describe, expect, it } from 'vitest';
import { parseManifest, selectPlatform } from './manifest';
import { MediaType } from './media-types';
import { RegistryError } from './registry-error';

const d = (c: string) => `sha256:${c.repeat(64)}`;
const entry = (arch: string, c: string, os = 'linux') => ({ mediaType: MediaType.OciManifest, digest: d(c), size: 1, platform: { os, architecture: arch } });

describe('parseManifest', () => {
  it('reads an OCI index by its mediaType', () => {
    const m = parseManifest(JSON.stringify({ schemaVersion: 2, mediaType: MediaType.OciIndex, manifests: [entry('amd64', 'a')] }), 'application/json');
    expect(m).toEqual({ kind: 'index', manifests: [entry('amd64', 'a')] });
  });

  it('reads a Docker manifest list by its Content-Type', () => {
    const m = parseManifest(JSON.stringify({ schemaVersion: 2, manifests: [entry('amd64', 'a')] }), `${MediaType.DockerManifestList}; charset=utf-8`);
    expect(m.kind).toBe('index');
  });

  it('reads a Docker schema2 manifest with its layers', () => {
    const layer = { mediaType: MediaType.DockerLayerGzip, digest: d('c'), size: 10 };
    const m = parseManifest(JSON.stringify({ schemaVersion: 2, mediaType: MediaType.DockerManifest, config: { mediaType: MediaType.DockerConfig, digest: d('e'), size: 2 }, layers: [layer] }), undefined);
    expect(m).toMatchObject({ kind: 'image', layers: [layer] });
  });

  it('refuses schema 1 and unknown kinds with a message', () => {
    expect(() => parseManifest(JSON.stringify({ schemaVersion: 1, layers: [] }), undefined)).toThrow(/schema version 1/);
    expect(() => parseManifest(JSON.stringify({ mediaType: 'application/x-helm' }), undefined)).toThrow(/unsupported media type "application\/x-helm"/);
    expect(() => parseManifest('not json', undefined)).toThrow(RegistryError);
  });
});

describe('selectPlatform', () => {
  it('takes linux/amd64 wherever it is in the list', () => {
    expect(selectPlatform([entry('arm64', 'a'), entry('s390x', 'b'), entry('amd64', 'c')]).digest).toBe(d('c'));
  });

  it('does not take amd64 of another OS', () => {
    expect(() => selectPlatform([entry('amd64', 'a', 'windows'), entry('arm64', 'b')])).toThrow('no matching manifest for linux/amd64 in the manifest list entries (the index has windows/amd64, linux/arm64)');
  });

  it('takes the only entry of an index without platforms', () => {
    expect(selectPlatform([{ mediaType: MediaType.OciManifest, digest: d('f'), size: 3 }]).digest).toBe(d('f'));
  });
});
