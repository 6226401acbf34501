/**
 * GET pods/<name>/log (`kubectl logs`): kube-apiserver's PodLogOptions checks and container choice,
 * then a stream from the kubelet of the Pod's node (Node.status.daemonEndpoints.kubeletEndpoint on
 * its InternalIP), carried through to the client until either side ends. The kubelet's refusals
 * come back as kube-apiserver relays them (400 and 404 with the kubelet's text).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { ResourceRequest } from '../handler-context';
import { getObject } from './read-objects';
import { badRequest, invalid, StatusError, type StatusCause } from '../status-error';
import { parseRfc3339Nano } from '../../../kube/cri-log';

/** metav1.Time's query form: RFC 3339 (a fraction is allowed, as Go's time.Parse allows it) */
const isRfc3339 = (text: string): boolean => parseRfc3339Nano(text) !== undefined;

const POD_LOG_OPTIONS = { group: '', kind: 'PodLogOptions' };
const KUBELET_TIMEOUT_MS = 10_000;

interface PodLogQuery { container?: string; follow: boolean; previous: boolean; timestamps: boolean; tailLines?: string; limitBytes?: string; sinceSeconds?: string; sinceTime?: string }

function checkOptions(name: string, q: URLSearchParams): PodLogQuery {
  const causes: StatusCause[] = [];
  const int = (field: string, min: number, rule: string) => {
    const raw = q.get(field);
    if (raw === null || raw === '') return undefined;
    if (!/^-?\d+$/.test(raw)) throw badRequest(`invalid value for ${field}: ${raw}`);
    if (Number(raw) < min) causes.push({ field, reason: 'FieldValueInvalid', message: `Invalid value: ${raw}: ${rule}` });
    return raw;
  };
  const tailLines = int('tailLines', 0, 'must be greater than or equal to 0');
  const limitBytes = int('limitBytes', 1, 'must be greater than 0');
  const sinceSeconds = int('sinceSeconds', 1, 'must be greater than 0');
  const sinceTime = q.get('sinceTime') || undefined;
  if (sinceTime && !isRfc3339(sinceTime)) throw badRequest(`parsing time "${sinceTime}" as "2006-01-02T15:04:05Z07:00": cannot parse "${sinceTime}" as RFC 3339`);
  if (q.get('sinceSeconds') && q.get('sinceTime')) causes.push({ reason: 'FieldValueForbidden', message: 'at most one of `sinceTime` or `sinceSeconds` may be specified' });
  if (causes.length) throw invalid(POD_LOG_OPTIONS, name, causes);
  return { container: q.get('container') ?? undefined, follow: q.get('follow') === 'true', previous: q.get('previous') === 'true', timestamps: q.get('timestamps') === 'true', tailLines, limitBytes, sinceSeconds, sinceTime };
}

interface PodShape {
  spec?: { nodeName?: string; containers?: { name: string }[]; initContainers?: { name: string }[] };
  status?: { containerStatuses?: { name: string; restartCount?: number }[] };
}

/** kube's container choice: the one container, or the one named, with kube's messages */
export function chooseContainer(pod: PodShape, name: string, wanted: string | undefined): string {
  const containers = (pod.spec?.containers ?? []).map((c) => c.name);
  const inits = (pod.spec?.initContainers ?? []).map((c) => c.name);
  if (!wanted) {
    if (containers.length === 1) return containers[0];
    const more = inits.length ? ` or one of the init containers: [${inits.join(' ')}]` : '';
    throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]${more}`);
  }
  if (!containers.includes(wanted) && !inits.includes(wanted)) throw badRequest(`container ${wanted} is not valid for pod ${name}`);
  return wanted;
}

interface NodeShape { status?: { addresses?: { type: string; address: string }[]; daemonEndpoints?: { kubeletEndpoint?: { Port?: number } } } }

function kubeletAddress(node: NodeShape, nodeName: string): { host: string; port: number } {
  const port = node.status?.daemonEndpoints?.kubeletEndpoint?.Port ?? 0;
  const host = node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address;
  if (!port || !host) throw new StatusError(503, 'ServiceUnavailable', `the kubelet of node "${nodeName}" publishes no endpoint to read logs from`);
  return { host, port };
}

function kubeletError(code: number, body: string): StatusError {
  const text = body.trim();
  if (code === 400) return badRequest(text);
  if (code === 404) return new StatusError(404, 'NotFound', text);
  return new StatusError(500, 'InternalError', `the kubelet answered ${code}: ${text}`);
}

function readAll(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    res.on('data', (c: Buffer) => { if (parts.length < 64) parts.push(c); });
    res.on('end', () => resolve(Buffer.concat(parts).toString('utf8').slice(0, 4096)));
    res.on('error', () => resolve(Buffer.concat(parts).toString('utf8')));
  });
}

export async function handlePodLog(r: ResourceRequest): Promise<void> {
  const { ctx, rt, info } = r;
  const name = info.name!;
  const opts = checkOptions(name, info.query);
  const pod = getObject(ctx, rt, info.namespace, name) as PodShape;
  const container = chooseContainer(pod, name, opts.container);
  if (opts.previous && !(pod.status?.containerStatuses?.find((c) => c.name === container)?.restartCount ?? 0)) {
    throw badRequest(`previous terminated container "${container}" in pod "${name}" not found`);
  }
  const nodeName = pod.spec?.nodeName;
  if (!nodeName) {
    // kube-apiserver has no host to ask and answers with an empty log
    r.res.writeHead(200, { 'content-type': 'text/plain' });
    return void r.res.end();
  }
  const nodes = ctx.registry.find('', 'v1', 'nodes')!;
  const target = kubeletAddress(getObject(ctx, nodes, undefined, nodeName) as NodeShape, nodeName);
  const query = new URLSearchParams();
  if (opts.follow) query.set('follow', 'true');
  if (opts.previous) query.set('previous', 'true');
  if (opts.tailLines !== undefined) query.set('tailLines', opts.tailLines);
  if (opts.limitBytes !== undefined) query.set('limitBytes', opts.limitBytes);
  if (opts.timestamps) query.set('timestamps', 'true');
  if (opts.sinceSeconds !== undefined) query.set('sinceSeconds', opts.sinceSeconds);
  if (opts.sinceTime !== undefined) query.set('sinceTime', opts.sinceTime);
  const path = `/containerLogs/${encodeURIComponent(info.namespace!)}/${encodeURIComponent(name)}/${encodeURIComponent(container)}?${query}`;
  await new Promise<void>((resolve, reject) => {
    const upstream = httpRequest({ ...target, path, method: 'GET', headers: { authorization: `Bearer ${ctx.kubeletClientToken ?? ''}` }, timeout: KUBELET_TIMEOUT_MS }, (res) => {
      upstream.setTimeout(0); // connected: a follower may wait for output as long as it likes
      if (res.statusCode !== 200) return void readAll(res).then((body) => reject(kubeletError(res.statusCode ?? 500, body)));
      r.res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
      r.res.flushHeaders();
      res.pipe(r.res);
      res.on('end', resolve);
      res.on('error', () => { r.res.destroy(); resolve(); });
    });
    upstream.on('timeout', () => upstream.destroy(new Error('timed out')));
    upstream.on('error', (err) => (r.res.headersSent ? (r.res.destroy(), resolve()) : reject(new StatusError(503, 'ServiceUnavailable', `cannot reach the kubelet of node "${nodeName}": ${err.message}`))));
    r.res.on('close', () => upstream.destroy());
    upstream.end();
  });
}
