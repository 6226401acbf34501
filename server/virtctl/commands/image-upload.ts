/**
 * `virtctl image-upload dv NAME --size=SIZE --image-path=FILE [--storage-class C] [--access-mode M]
 * [--volume-mode filesystem|block] [--uploadproxy-url URL] [--no-create] [--wait-secs N] [--insecure]`:
 * creates an upload DataVolume, waits for UploadReady, asks for an upload token (UploadTokenRequest),
 * sends the file with it and a progress line on stderr, and waits for the processing to end, with
 * KubeVirt's virtctl messages. The upload
 * endpoint is the one `kv storage` advertises (Endpoints kubevirt/cdi-uploadproxy) unless given.
 */
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { basename } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { parseQuantity } from '../../../lib/kubevirt/quantity';
import { ApiCallError, apiRequest } from '../api-request';
import { loadClientConfig } from '../client-config';
import { exactArgs, intFlag, parseFlags } from '../flags';
import { UsageError, VirtctlError } from '../virtctl-error';
import type { Output } from '../output';

const FLAGS = {
  size: { type: 'string' as const },
  'image-path': { type: 'string' as const },
  'storage-class': { type: 'string' as const },
  'access-mode': { type: 'string' as const },
  'volume-mode': { type: 'string' as const },
  'uploadproxy-url': { type: 'string' as const },
  'no-create': { type: 'boolean' as const },
  'wait-secs': { type: 'string' as const },
  insecure: { type: 'boolean' as const },
  'force-bind': { type: 'boolean' as const },
};

const dvPath = (ns: string, name?: string) => `/apis/cdi.kubevirt.io/v1beta1/namespaces/${encodeURIComponent(ns)}/datavolumes${name ? `/${encodeURIComponent(name)}` : ''}`;

async function readDV(kc: KubeConfig, ns: string, name: string): Promise<{ status?: { phase?: string; conditions?: { type: string; message?: string }[] } } | undefined> {
  try {
    return JSON.parse((await apiRequest(kc, 'GET', dvPath(ns, name))).body.toString('utf8'));
  } catch (err) {
    if (err instanceof ApiCallError && err.statusCode === 404) return undefined;
    throw err;
  }
}

async function waitFor<T>(what: string, seconds: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const got = await check();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new VirtctlError(`timed out after ${seconds}s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function uploadProxyURL(kc: KubeConfig, given: string | undefined): Promise<string> {
  if (given) return given.replace(/\/$/, '');
  try {
    const ep = JSON.parse((await apiRequest(kc, 'GET', '/api/v1/namespaces/kubevirt/endpoints/cdi-uploadproxy')).body.toString('utf8'));
    const subset = ep.subsets?.[0];
    return `http://${subset.addresses[0].ip}:${subset.ports[0].port}`;
  } catch {
    throw new VirtctlError('cannot find the upload proxy: pass --uploadproxy-url (on `kv up` it is the Endpoints kubevirt/cdi-uploadproxy)');
  }
}

/** an UploadTokenRequest for the PVC, as KubeVirt's virtctl asks CDI: the token alone names the PVC to the upload proxy */
async function uploadToken(kc: KubeConfig, namespace: string, pvcName: string): Promise<string> {
  const body = { apiVersion: 'upload.cdi.kubevirt.io/v1beta1', kind: 'UploadTokenRequest', metadata: { name: 'token-for-virtctl', namespace }, spec: { pvcName } };
  try {
    const res = JSON.parse((await apiRequest(kc, 'POST', `/apis/upload.cdi.kubevirt.io/v1beta1/namespaces/${encodeURIComponent(namespace)}/uploadtokenrequests`, body)).body.toString('utf8')) as { status?: { token?: string } };
    if (!res.status?.token) throw new Error('no token in the UploadTokenRequest\'s status');
    return res.status.token;
  } catch (err) {
    throw new VirtctlError(err instanceof Error ? err.message : String(err));
  }
}

function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return `${n.toFixed(2)} ${units[i]}`;
}

function sendFile(url: URL, file: string, size: number, token: string | undefined, insecure: boolean, out: Output): Promise<{ status: number; body: string }> {
  const mod = url.protocol === 'https:' ? https : http;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = mod.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(size), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(insecure ? { rejectUnauthorized: false } : {}),
    }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => { body += d.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: body.trim() }));
    });
    req.on('error', reject);
    let sent = 0;
    let last = 0;
    const bar = (final = false) => {
      const now = Date.now();
      if (!final && now - last < 200) return;
      last = now;
      const pct = size ? (100 * sent) / size : 100;
      const filled = Math.round(pct / 5);
      const rate = sent / Math.max(0.001, (now - started) / 1000);
      out.stderr(`\r ${formatBytes(sent)} / ${formatBytes(size)} [${'='.repeat(filled)}${' '.repeat(20 - filled)}] ${pct.toFixed(2)}% ${formatBytes(rate)}/s${final ? '\n' : ''}`);
    };
    const stream = createReadStream(file, { highWaterMark: 1 << 20 });
    stream.on('data', (c) => { sent += c.length; bar(); });
    stream.on('end', () => bar(true));
    stream.on('error', reject);
    stream.pipe(req);
  });
}

export async function imageUploadCommand(argv: string[], out: Output): Promise<void> {
  const { global, values, positionals } = parseFlags(argv, FLAGS);
  const [kind, name] = exactArgs(positionals, 2);
  if (kind !== 'dv') throw new UsageError(`only DataVolume targets are served ("image-upload dv NAME"), not ${JSON.stringify(kind)}`);
  const imagePath = values['image-path'];
  if (typeof imagePath !== 'string' || !imagePath) throw new UsageError('required flag(s) "image-path" not set');
  let fileSize: number;
  try {
    fileSize = statSync(imagePath).size;
  } catch {
    throw new VirtctlError(`failed to open file ${imagePath}: no such file or directory`);
  }
  const waitSecs = intFlag(values, 'wait-secs') ?? 300;
  const { kc, namespace } = loadClientConfig(global);
  if (values['no-create'] !== true) {
    const size = values.size;
    if (typeof size !== 'string' || !size) throw new UsageError('when creating a DataVolume, the size must be specified');
    if (!parseQuantity(size)) throw new VirtctlError(`validation failed for size=${size}: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
    const storage: Record<string, unknown> = { resources: { requests: { storage: size } } };
    if (typeof values['storage-class'] === 'string') storage.storageClassName = values['storage-class'];
    if (typeof values['access-mode'] === 'string') storage.accessModes = [values['access-mode']];
    if (values['volume-mode'] === 'block') storage.volumeMode = 'Block';
    try {
      await apiRequest(kc, 'POST', dvPath(namespace), { apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', metadata: { name, namespace }, spec: { source: { upload: {} }, storage } });
    } catch (err) {
      throw new VirtctlError(err instanceof Error ? err.message : String(err));
    }
    out.stdout(`PVC ${namespace}/${name} not found \nDataVolume ${namespace}/${name} created\n`);
  }
  out.stdout(`Waiting for PVC ${name} upload pod to be ready...\n`);
  await waitFor('the upload to be ready', waitSecs, async () => {
    const dv = await readDV(kc, namespace, name);
    if (!dv) throw new VirtctlError(`DataVolume ${namespace}/${name} not found`);
    if (dv.status?.phase === 'Failed') throw new VirtctlError(`DataVolume ${namespace}/${name} failed`);
    return dv.status?.phase === 'UploadReady' ? true : undefined;
  });
  out.stdout('Pod now ready\n');
  const base = await uploadProxyURL(kc, typeof values['uploadproxy-url'] === 'string' ? values['uploadproxy-url'] : undefined);
  out.stdout(`Uploading data to ${base}\n\n`);
  const token = await uploadToken(kc, namespace, name);
  const sent = await sendFile(new URL(`${base}/v1beta1/upload`), imagePath, fileSize, token, values.insecure === true, out);
  if (sent.status !== 200) throw new VirtctlError(`unexpected return value ${sent.status}, ${sent.body}`);
  out.stdout('\nUploading data completed successfully, waiting for processing to complete, you can hit ctrl-c without interrupting the progress\n');
  await waitFor('processing to complete', waitSecs, async () => {
    const dv = await readDV(kc, namespace, name);
    if (dv?.status?.phase === 'Failed') throw new VirtctlError(`processing failed: ${dv.status.conditions?.find((c) => c.type === 'Running')?.message ?? ''}`);
    return dv?.status?.phase === 'Succeeded' ? true : undefined;
  });
  out.stdout(`Processing completed successfully\nUploading ${basename(imagePath)} completed successfully\n`);
}
