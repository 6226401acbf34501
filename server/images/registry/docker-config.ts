/**
 * PURE: credentials from `kubernetes.io/dockerconfigjson` (and legacy `kubernetes.io/dockercfg`)
 * Secrets, as the kubelet reads them: `auths` keyed by registry (a bare host, host:port, or a URL
 * such as `https://index.docker.io/v1/`), each with `auth` (base64 `user:password`) or
 * `username`/`password`.
 */
import { DOCKER_HUB } from './registry-reference';

export interface Credentials { username: string; password: string }
interface AuthEntry { auth?: string; username?: string; password?: string }

const DOCKER_HUB_KEYS = new Set([DOCKER_HUB, 'index.docker.io', 'registry-1.docker.io', 'registry.hub.docker.com']);

/** `https://quay.io/v1/` → `quay.io`; Docker Hub's many names → `docker.io`. */
export function normalizeRegistryKey(key: string): string {
  const host = key.replace(/^[a-z]+:\/\//i, '').split('/')[0].toLowerCase();
  return DOCKER_HUB_KEYS.has(host) ? DOCKER_HUB : host;
}

function decodeEntry(e: AuthEntry): Credentials | undefined {
  if (e.username !== undefined || e.password !== undefined) return { username: e.username ?? '', password: e.password ?? '' };
  if (!e.auth) return undefined;
  const text = Buffer.from(e.auth, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  return colon < 0 ? undefined : { username: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** The `auths` map of one Secret's data (base64 values, as the API returns them); {} when unreadable. */
export function parseDockerConfigSecret(type: string | undefined, data: Record<string, string> | undefined): Record<string, AuthEntry> {
  const raw = type === 'kubernetes.io/dockercfg' ? data?.['.dockercfg'] : data?.['.dockerconfigjson'];
  if (!raw) return {};
  try {
    const doc = JSON.parse(Buffer.from(raw, 'base64').toString('utf8')) as { auths?: Record<string, AuthEntry> } & Record<string, AuthEntry>;
    return type === 'kubernetes.io/dockercfg' ? doc : (doc.auths ?? {});
  } catch {
    return {};
  }
}

/** The first credentials (in Secret order) for `registry`, matched by host[:port]. */
export function credentialsFor(registry: string, configs: Record<string, AuthEntry>[]): Credentials | undefined {
  const want = normalizeRegistryKey(registry);
  for (const auths of configs) {
    for (const [key, entry] of Object.entries(auths)) {
      if (normalizeRegistryKey(key) !== want) continue;
      const creds = decodeEntry(entry);
      if (creds) return creds;
    }
  }
  return undefined;
}
