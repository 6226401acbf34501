/**
 * The API server's writes by verb, resource and user (`kubevirt_ts_apiserver_write_requests_total`
 * on its /metrics), for benches and tests that count what a VMI start costs.
 */
import type { ApiAccess } from '../../server/up/readiness';
import { callRest } from './rest';

export interface WriteCount {
  /** kube's verb label: POST, PUT, PATCH, DELETE */
  verb: string;
  /** resource[/subresource] */
  resource: string;
  user: string;
  code: string;
  n: number;
}

const SERIES = /^kubevirt_ts_apiserver_write_requests_total\{(.*)\} (\d+(?:\.\d+)?)$/;

export async function readWrites(access: ApiAccess): Promise<WriteCount[]> {
  const reply = await callRest({ url: access.server, ca: access.ca, token: access.token }, 'GET', '/metrics');
  if (reply.status !== 200) throw new Error(`GET /metrics: ${reply.status}`);
  const out: WriteCount[] = [];
  for (const line of String(reply.body).split('\n')) {
    const m = SERIES.exec(line);
    if (!m) continue;
    const l = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    out.push({ verb: l.verb, resource: l.subresource ? `${l.resource}/${l.subresource}` : l.resource, user: l.user, code: l.code, n: Number(m[2]) });
  }
  return out;
}

const REQUESTS = /^apiserver_request_total\{(.*)\} (\d+(?:\.\d+)?)$/;

/** the API server's reads so far (GET, LIST) per verb and resource[/subresource] */
export async function readReads(access: ApiAccess): Promise<Map<string, number>> {
  const reply = await callRest({ url: access.server, ca: access.ca, token: access.token }, 'GET', '/metrics');
  if (reply.status !== 200) throw new Error(`GET /metrics: ${reply.status}`);
  const out = new Map<string, number>();
  for (const line of String(reply.body).split('\n')) {
    const m = REQUESTS.exec(line);
    if (!m) continue;
    const l = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (l.verb !== 'GET' && l.verb !== 'LIST') continue;
    const key = `${l.verb} ${l.subresource ? `${l.resource}/${l.subresource}` : l.resource}`;
    out.set(key, (out.get(key) ?? 0) + Number(m[2]));
  }
  return out;
}

const WATCHES = /^apiserver_longrunning_requests\{(.*)\} (\d+(?:\.\d+)?)$/;

/** the watches open on the API server per resource, most first */
export async function readWatches(access: ApiAccess): Promise<{ resource: string; n: number }[]> {
  const reply = await callRest({ url: access.server, ca: access.ca, token: access.token }, 'GET', '/metrics');
  if (reply.status !== 200) throw new Error(`GET /metrics: ${reply.status}`);
  const out: { resource: string; n: number }[] = [];
  for (const line of String(reply.body).split('\n')) {
    const m = WATCHES.exec(line);
    const resource = m && /resource="([^"]*)"/.exec(m[1])?.[1];
    if (m && resource && Number(m[2]) > 0) out.push({ resource, n: Number(m[2]) });
  }
  return out.sort((a, b) => b.n - a.n);
}

const keyOf = (w: WriteCount) => `${w.verb} ${w.resource} ${w.user} ${w.code}`;

/** the writes made between two readings */
export function diffWrites(before: WriteCount[], after: WriteCount[]): WriteCount[] {
  const prev = new Map(before.map((w) => [keyOf(w), w.n]));
  return after.map((w) => ({ ...w, n: w.n - (prev.get(keyOf(w)) ?? 0) })).filter((w) => w.n > 0);
}

/** `system:serviceaccount:kubevirt:kubevirt-handler` → `kubevirt-handler` */
export const shortUser = (user: string) => user.replace(/^system:serviceaccount:[^:]+:/, '');

/** the writes that make up a VMI start (its VMI and launcher Pod, the Pod's binding and status), not events or leases */
export const isStartWrite = (w: WriteCount) => /^(virtualmachineinstances|pods)(\/|$)/.test(w.resource);

/** Lines "  PUT virtualmachineinstances/status  kubevirt-controller  200  1.00 per VMI", most first. */
export function formatWrites(writes: WriteCount[], perVMIs: number): string[] {
  return [...writes].sort((a, b) => b.n - a.n)
    .map((w) => `  ${w.verb.padEnd(6)} ${w.resource.padEnd(34)} ${shortUser(w.user).padEnd(22)} ${w.code}  ${(w.n / perVMIs).toFixed(2)} per VMI`);
}

/** TLS connections the API server accepted so far (`kubevirt_ts_apiserver_tls_connections_total`): full handshakes and resumed sessions */
export async function readTlsConnections(access: ApiAccess): Promise<{ full: number; resumed: number }> {
  const reply = await callRest({ url: access.server, ca: access.ca, token: access.token }, 'GET', '/metrics');
  if (reply.status !== 200) throw new Error(`GET /metrics: ${reply.status}`);
  const value = (resumed: boolean) => Number(new RegExp(`^kubevirt_ts_apiserver_tls_connections_total\\{resumed="${resumed}"\\} (\\d+)`, 'm').exec(String(reply.body))?.[1] ?? 0);
  return { full: value(false), resumed: value(true) };
}
