/**
 * The files of a Pod's configMap, secret, downwardAPI and projected volumes, as the kubelet writes
 * them (pure): `items` pick keys and paths, `defaultMode`/`mode` the permissions, a missing object
 * or key that is not optional is kube's FailedMount message. The service-account token of a
 * projected volume comes from the caller (a TokenRequest bound to the Pod).
 */
import type { V1ConfigMap, V1DownwardAPIVolumeFile, V1KeyToPath, V1Pod, V1Secret, V1Volume } from '@kubernetes/client-node';
import { fieldRefValue, resourceFieldValue } from './pod-env';

export interface VolumeFile { content: Buffer; mode: number }
export type VolumeFiles = Map<string, VolumeFile>;

export class VolumeSourceError extends Error {}

/** what the files are made from (a name mapped to undefined: not found) */
export interface VolumeSources {
  configMaps: Map<string, V1ConfigMap | undefined>;
  secrets: Map<string, V1Secret | undefined>;
  podIP: string;
  hostIP: string;
  /** the token for a serviceAccountToken projection (audience, expirationSeconds) */
  token?: (audience: string | undefined, expirationSeconds: number) => string | undefined;
}

const DEFAULT_MODE = 0o644;

function keyed(data: Record<string, Buffer>, items: V1KeyToPath[] | undefined, mode: number, what: string, optional: boolean | undefined, out: VolumeFiles): void {
  if (!items?.length) {
    for (const [k, v] of Object.entries(data)) out.set(k, { content: v, mode });
    return;
  }
  for (const it of items) {
    const v = data[it.key];
    if (v === undefined) {
      if (optional) continue;
      throw new VolumeSourceError(`configmap references non-existent config key: ${it.key}`.replace('configmap', what));
    }
    out.set(it.path, { content: v, mode: it.mode ?? mode });
  }
}

function configMapData(cm: V1ConfigMap): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const [k, v] of Object.entries(cm.data ?? {})) out[k] = Buffer.from(v);
  for (const [k, v] of Object.entries(cm.binaryData ?? {})) out[k] = Buffer.from(v, 'base64');
  return out;
}

function secretData(s: V1Secret): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const [k, v] of Object.entries(s.data ?? {})) out[k] = Buffer.from(v, 'base64');
  for (const [k, v] of Object.entries(s.stringData ?? {})) out[k] = Buffer.from(v);
  return out;
}

function configMapFiles(src: VolumeSources, ref: { name?: string; items?: V1KeyToPath[]; optional?: boolean }, mode: number, out: VolumeFiles): void {
  const cm = src.configMaps.get(ref.name ?? '');
  if (!cm) {
    if (ref.optional) return;
    throw new VolumeSourceError(`configmap "${ref.name}" not found`);
  }
  keyed(configMapData(cm), ref.items, mode, 'configmap', ref.optional, out);
}

function secretFiles(src: VolumeSources, name: string | undefined, ref: { items?: V1KeyToPath[]; optional?: boolean }, mode: number, out: VolumeFiles): void {
  const s = src.secrets.get(name ?? '');
  if (!s) {
    if (ref.optional) return;
    throw new VolumeSourceError(`secret "${name}" not found`);
  }
  keyed(secretData(s), ref.items, mode, 'secret', ref.optional, out);
}

function downwardFiles(pod: V1Pod, src: VolumeSources, items: V1DownwardAPIVolumeFile[] | undefined, mode: number, out: VolumeFiles): void {
  for (const it of items ?? []) {
    let v = '';
    if (it.fieldRef) v = fieldRefValue(pod, it.fieldRef.fieldPath, src);
    else if (it.resourceFieldRef) {
      const c = pod.spec?.containers.find((x) => x.name === it.resourceFieldRef!.containerName) ?? pod.spec!.containers[0];
      v = resourceFieldValue(pod, c, it.resourceFieldRef as { resource: string; containerName?: string; divisor?: string });
    }
    out.set(it.path, { content: Buffer.from(v), mode: it.mode ?? mode });
  }
}

/** whether the kubelet writes this volume's files itself (and must refresh a projected token) */
export function isFileVolume(v: V1Volume): boolean {
  return Boolean(v.configMap || v.secret || v.downwardAPI || v.projected);
}

/** the relative path → content of one file volume; throws VolumeSourceError with kube's message */
export function volumeFiles(pod: V1Pod, v: V1Volume, src: VolumeSources): VolumeFiles {
  const out: VolumeFiles = new Map();
  if (v.configMap) configMapFiles(src, v.configMap, v.configMap.defaultMode ?? DEFAULT_MODE, out);
  else if (v.secret) secretFiles(src, v.secret.secretName, v.secret, v.secret.defaultMode ?? DEFAULT_MODE, out);
  else if (v.downwardAPI) downwardFiles(pod, src, v.downwardAPI.items, v.downwardAPI.defaultMode ?? DEFAULT_MODE, out);
  else if (v.projected) {
    const mode = v.projected.defaultMode ?? DEFAULT_MODE;
    for (const s of v.projected.sources ?? []) {
      if (s.configMap) configMapFiles(src, s.configMap, mode, out);
      else if (s.secret) secretFiles(src, s.secret.name, s.secret, mode, out);
      else if (s.downwardAPI) downwardFiles(pod, src, s.downwardAPI.items, mode, out);
      else if (s.serviceAccountToken) {
        const t = s.serviceAccountToken;
        const token = src.token?.(t.audience, t.expirationSeconds ?? 3600);
        if (token === undefined) throw new VolumeSourceError(`failed to fetch token: the service account of pod ${pod.metadata?.namespace}/${pod.metadata?.name} has no token`);
        out.set(t.path, { content: Buffer.from(token), mode });
      }
    }
  }
  for (const p of out.keys()) {
    if (p.startsWith('/') || p.split('/').includes('..')) throw new VolumeSourceError(`volume "${v.name}": item path "${p}" must be relative and may not contain '..'`);
  }
  return out;
}

/** the serviceAccountToken projections of the Pod (audience, expiration): what the kubelet must request */
export function tokenProjections(pod: V1Pod): { audience?: string; expirationSeconds: number }[] {
  const out: { audience?: string; expirationSeconds: number }[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    for (const s of v.projected?.sources ?? []) {
      if (s.serviceAccountToken) out.push({ audience: s.serviceAccountToken.audience, expirationSeconds: s.serviceAccountToken.expirationSeconds ?? 3600 });
    }
  }
  return out;
}
