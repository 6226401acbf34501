/**
 * PURE: a containerDisk reference → where to ask for it (the OCI distribution API's registry host,
 * repository name and tag or digest). Docker Hub short names expand as docker does:
 * `alpine` → `docker.io/library/alpine:latest`, asked of `registry-1.docker.io`.
 */
import { parseImageReference } from '../image-name';

export const DOCKER_HUB = 'docker.io';
const DOCKER_HUB_API = 'registry-1.docker.io';

export interface RegistryReference {
  /** The registry as users name it (`docker.io`, `quay.io`, `127.0.0.1:5000`): the key for credentials. */
  registry: string;
  /** The host[:port] the API is asked on. */
  apiHost: string;
  /** The repository on that registry, e.g. `library/alpine`, `containerdisks/fedora`. */
  repository: string;
  tag?: string;
  digest?: string;
  /** What the manifest endpoint is asked for: the digest when there is one, else the tag. */
  reference: string;
  /** The fully qualified reference, e.g. `docker.io/library/alpine:latest`. */
  canonical: string;
}

function splitRegistry(repository: string): { registry: string; path: string } {
  const slash = repository.indexOf('/');
  const first = slash < 0 ? '' : repository.slice(0, slash);
  if (first && (first.includes('.') || first.includes(':') || first === 'localhost')) {
    return { registry: first, path: repository.slice(slash + 1) };
  }
  return { registry: DOCKER_HUB, path: repository };
}

/** Undefined when `ref` is not a valid image reference. */
export function toRegistryReference(ref: string): RegistryReference | undefined {
  const parsed = parseImageReference(ref);
  if (!parsed) return undefined;
  const { registry, path } = splitRegistry(parsed.repository);
  const repository = registry === DOCKER_HUB && !path.includes('/') ? `library/${path}` : path;
  const apiHost = registry === DOCKER_HUB ? DOCKER_HUB_API : registry;
  const name = `${registry}/${repository}`;
  const tag = parsed.digest ? undefined : parsed.tag;
  return {
    registry, apiHost, repository, tag, digest: parsed.digest,
    reference: parsed.digest ?? tag!,
    canonical: parsed.digest ? `${name}@${parsed.digest}` : `${name}:${tag}`,
  };
}

/**
 * Plain http for loopback registries and those listed as insecure (host or host:port);
 * https (with the system's CAs) everywhere else.
 */
export function registryScheme(apiHost: string, insecure: readonly string[] = []): 'http' | 'https' {
  const host = apiHost.replace(/:\d+$/, '');
  if (host === 'localhost' || host === '127.0.0.1' || host.startsWith('127.') || host === '[::1]') return 'http';
  return insecure.includes(apiHost) || insecure.includes(host) ? 'http' : 'https';
}

/** `KV_INSECURE_REGISTRIES`: comma- or space-separated hosts (host or host:port) spoken to over http. */
export function insecureRegistriesFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env.KV_INSECURE_REGISTRIES ?? '').split(/[\s,]+/).filter(Boolean);
}
