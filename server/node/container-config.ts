/**
 * What the kubelet gathers before a container starts (and refreshes while it runs): the
 * ConfigMaps, Secrets and Services its env names (Services and the endpoint from the kubelet's cache,
 * service-env-cache.ts, once synced), the `kubernetes` Service's endpoint, and the
 * Pod's file volumes (configMap, secret, downwardAPI, projected with a TokenRequest bound to the
 * Pod), emptyDirs and hostPaths, written under `<pod dir>/volumes/<name>`. The result maps every
 * volume the node can give to its host path, for the bind mounts (container-mounts.ts).
 */
import { existsSync, mkdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CoreV1Api, V1ConfigMap, V1Pod, V1Secret, V1Service } from '@kubernetes/client-node';
import { unlessNotFound } from '../kube/api-errors';
import type { EnvSources } from './pod-env';
import { serviceEnvSnapshot, type ServiceEnvSource } from './service-env-cache';
import { referencedObjects } from './pod-env';
import { isFileVolume, tokenProjections, volumeFiles, VolumeSourceError } from './pod-volume-files';
import { writeVolumeAtomically } from './volume-writer';
import { VOLUMES_DIR } from './pod-volumes';

/** kube refreshes a projected token once 80% of its lifetime has passed */
const REFRESH_FRACTION = 0.8;

export interface ContainerConfig {
  sources: Omit<EnvSources, 'podIP' | 'hostIP'>;
  volumePaths: Map<string, string>;
  /** when the projected tokens must be written again (ms since epoch), if the Pod has any */
  tokenRefreshAt?: number;
}

async function fetchSources(core: CoreV1Api, pod: V1Pod, cache?: ServiceEnvSource): Promise<ContainerConfig['sources']> {
  const namespace = pod.metadata?.namespace ?? 'default';
  const refs = referencedObjects(pod);
  const configMaps = new Map<string, V1ConfigMap | undefined>();
  const secrets = new Map<string, V1Secret | undefined>();
  for (const name of refs.configMaps) configMaps.set(name, await unlessNotFound(core.readNamespacedConfigMap({ namespace, name })));
  for (const name of refs.secrets) secrets.set(name, await unlessNotFound(core.readNamespacedSecret({ namespace, name })));
  const serviceLinks = pod.spec?.enableServiceLinks ?? true;
  const cached = cache?.snapshot(namespace, serviceLinks);
  if (cached) return { configMaps, secrets, ...cached };
  const services: V1Service[] = serviceLinks ? (await core.listNamespacedService({ namespace })).items : [];
  const kube = await unlessNotFound(core.readNamespacedService({ namespace: 'default', name: 'kubernetes' }));
  const ep = await unlessNotFound(core.readNamespacedEndpoints({ namespace: 'default', name: 'kubernetes' }));
  return { configMaps, secrets, ...serviceEnvSnapshot(services, kube, ep) };
}

async function requestToken(core: CoreV1Api, pod: V1Pod, audience: string | undefined, expirationSeconds: number): Promise<{ token: string; expiresAt: number }> {
  const r = await core.createNamespacedServiceAccountToken({
    namespace: pod.metadata!.namespace!,
    name: pod.spec?.serviceAccountName || 'default',
    body: { spec: { audiences: audience ? [audience] : [], expirationSeconds, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: pod.metadata!.name!, uid: pod.metadata!.uid! } } },
  });
  return { token: r.status!.token, expiresAt: r.status?.expirationTimestamp ? new Date(r.status.expirationTimestamp).getTime() : Date.now() + expirationSeconds * 1000 };
}

/** hostPath's type check and *OrCreate, as the kubelet does it; the message is kube's */
function hostPathOf(path: string, type: string | undefined): string {
  if (type === 'DirectoryOrCreate' && !existsSync(path)) mkdirSync(path, { recursive: true, mode: 0o755 });
  if (type === 'FileOrCreate' && !existsSync(path)) writeFileSync(path, '', { mode: 0o644 });
  if (type === 'Directory' || type === 'DirectoryOrCreate') {
    if (!existsSync(path) || !statSync(path).isDirectory()) throw new VolumeSourceError(`hostPath type check failed: ${path} is not a directory`);
  } else if (type === 'File' || type === 'FileOrCreate') {
    if (!existsSync(path) || !statSync(path).isFile()) throw new VolumeSourceError(`hostPath type check failed: ${path} is not a file`);
  }
  return path;
}

/**
 * Fetches the sources and writes the volumes; a volume that cannot be made throws VolumeSourceError
 * (FailedMount). Called again while the Pod runs, it rewrites them (a fresh token, changed ConfigMaps).
 */
/**
 * `ips.ownNetwork`: the Pod gets its own network namespace, where the `kubernetes` Service's
 * ClusterIP works (the service proxy carries it to the API server's advertise address), so its
 * KUBERNETES_SERVICE_HOST/PORT are the Service's, as in Kubernetes. Otherwise they name the API
 * server's address, which a Pod on the host's network reaches directly (as does one with its own
 * network when the API server advertises only loopback: nothing better exists then).
 */
/** `services`: the kubelet's Service cache; the API server is read while it has not synced */
export async function prepareContainerConfig(core: CoreV1Api, pod: V1Pod, podDir: string, ips: { podIP: string; hostIP: string; ownNetwork?: boolean }, services?: ServiceEnvSource): Promise<ContainerConfig> {
  const sources = await fetchSources(core, pod, services);
  if (ips.ownNetwork && !sources.kubernetesEndpoint?.host.startsWith('127.')) sources.kubernetesEndpoint = undefined;
  const tokens = new Map<string, string>();
  let earliest: number | undefined;
  for (const t of tokenProjections(pod)) {
    const k = `${t.audience ?? ''}|${t.expirationSeconds}`;
    if (tokens.has(k)) continue;
    try {
      const r = await requestToken(core, pod, t.audience, t.expirationSeconds);
      tokens.set(k, r.token);
      const refresh = Date.now() + (r.expiresAt - Date.now()) * REFRESH_FRACTION;
      earliest = Math.min(earliest ?? refresh, refresh);
    } catch (err) {
      throw new VolumeSourceError(`failed to fetch token: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const volumePaths = new Map<string, string>();
  for (const v of pod.spec?.volumes ?? []) {
    const dir = join(podDir, VOLUMES_DIR, v.name);
    if (isFileVolume(v)) {
      const files = volumeFiles(pod, v, { configMaps: sources.configMaps, secrets: sources.secrets, ...ips, token: (aud, exp) => tokens.get(`${aud ?? ''}|${exp}`) });
      writeVolumeAtomically(dir, files);
      volumePaths.set(v.name, dir);
    } else if (v.emptyDir) {
      mkdirSync(dir, { recursive: true, mode: 0o777 });
      volumePaths.set(v.name, dir);
    } else if (v.hostPath) {
      volumePaths.set(v.name, hostPathOf(v.hostPath.path, v.hostPath.type));
    } else if (v.persistentVolumeClaim && existsSync(dir)) {
      volumePaths.set(v.name, realpathSync(dir)); // linked by pod-volumes.ts once the claim is bound
    }
  }
  return { sources, volumePaths, tokenRefreshAt: earliest };
}
