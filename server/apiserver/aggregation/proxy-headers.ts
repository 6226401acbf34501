import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/** Request headers kube's front proxy sets and never forwards from the client. */
export const REMOTE_USER_HEADER = 'x-remote-user';
export const REMOTE_GROUP_HEADER = 'x-remote-group';
const REMOTE_EXTRA_PREFIX = 'x-remote-extra-';

const HOP_BY_HOP = new Set([
  'connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade',
]);

/**
 * The headers forwarded to an aggregated API server: the client's, minus its credentials, any
 * X-Remote-* it tried to set and hop-by-hop headers (kept for upgrades), plus the authenticated
 * user as X-Remote-User / X-Remote-Group.
 */
export function forwardedHeaders(
  incoming: IncomingHttpHeaders,
  user: { username: string; groups: string[] },
  opts: { upgrade: boolean; host: string },
): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(incoming)) {
    const key = k.toLowerCase();
    if (v === undefined || key === 'authorization' || key === 'host') continue;
    if (key.startsWith('impersonate-')) continue;
    if (key === REMOTE_USER_HEADER || key === REMOTE_GROUP_HEADER || key.startsWith(REMOTE_EXTRA_PREFIX)) continue;
    if (!opts.upgrade && HOP_BY_HOP.has(key)) continue;
    out[key] = v;
  }
  out.host = opts.host;
  out[REMOTE_USER_HEADER] = user.username;
  out[REMOTE_GROUP_HEADER] = user.groups;
  return out;
}

/** Response headers passed back to the client (hop-by-hop removed). */
export function returnedHeaders(incoming: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(incoming)) if (v !== undefined && !HOP_BY_HOP.has(k.toLowerCase())) out[k] = v;
  return out;
}
