/**
 * PURE: a registry's `WWW-Authenticate` challenge (RFC 7235): `Bearer realm="…",service="…",scope="…"`
 * → the scheme and its parameters; and the token URL a Bearer challenge asks for.
 */
export interface AuthChallenge {
  scheme: string;
  params: Record<string, string>;
}

const PARAM = /\s*([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))\s*(?:,|$)/y;

export function parseAuthChallenge(header: string | null | undefined): AuthChallenge | undefined {
  const m = /^\s*([A-Za-z][A-Za-z0-9_-]*)(?:\s+(.*))?$/s.exec(header ?? '');
  if (!m) return undefined;
  const params: Record<string, string> = {};
  const rest = m[2] ?? '';
  PARAM.lastIndex = 0;
  while (PARAM.lastIndex < rest.length) {
    const p = PARAM.exec(rest);
    if (!p) break;
    params[p[1].toLowerCase()] = p[2] !== undefined ? p[2].replace(/\\(.)/g, '$1') : p[3];
  }
  return { scheme: m[1].toLowerCase(), params };
}

/** The token endpoint for a Bearer challenge; `scope` defaults to pulling `repository`. */
export function tokenUrl(challenge: AuthChallenge, repository: string): URL {
  const realm = challenge.params.realm;
  if (!realm) throw new Error('Bearer challenge without realm');
  const url = new URL(realm);
  if (challenge.params.service) url.searchParams.set('service', challenge.params.service);
  url.searchParams.set('scope', challenge.params.scope ?? `repository:${repository}:pull`);
  return url;
}
