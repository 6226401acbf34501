/**
 * Uploading with CDI's upload tokens, against a real API server, the real storage controllers
 * (kube's volume binder + CDI's DataVolume controller) and the real upload endpoint; the test plays
 * the kubelet (it marks the upload Pod Running). An editor asks for a token with an
 * UploadTokenRequest and uploads with it alone (no query); a token for another PVC, an expired one
 * and a forged one are refused with CDI's statuses; a viewer gets kube's 403 for the token;
 * `virtctl image-upload` goes the same way (DataVolume, UploadReady, token, POST).
 */
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setMaxListeners } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventRecorder } from '../../kube/events';
import { exchangeJson } from '../../kube/raw-request';
import { makeKubeConfig } from '../../kube/kubeconfig';
import { startTestApiServer } from '../../kube/testing/api-server';
import { waitFor } from '../../kube/testing/wait-for';
import { signUploadToken } from '../../kube/upload-token';
import { ensureStorageClasses } from '../../up/storage-classes';
import { VolumeController } from '../../storage/volume-controller';
import { DataVolumeController } from '../datavolume-controller';
import { createUploadServer } from './upload-server';
import { writeKubeconfig } from '../../apiserver/kubeconfig';
import { imageUploadCommand } from '../../virtctl/commands/image-upload';

const NS = 'default';
let api: Awaited<ReturnType<typeof startTestApiServer>>;
let server: Server;
let base: string;
let dir: string;
const stop = new AbortController();
setMaxListeners(50, stop.signal); // the two controllers' informers all listen on it
const users: Record<string, KubeConfig> = {};

const dvPath = (name?: string) => `/apis/cdi.kubevirt.io/v1beta1/namespaces/${NS}/datavolumes${name ? `/${name}` : ''}`;
const dvPhase = async (name: string) => (await exchangeJson<{ status?: { phase?: string } }>(api.kc, 'GET', dvPath(name))).json?.status?.phase;

async function tokenFor(kc: KubeConfig, pvcName: string): Promise<{ status: number; token?: string; message?: string }> {
  const body = { apiVersion: 'upload.cdi.kubevirt.io/v1beta1', kind: 'UploadTokenRequest', metadata: { name: 'token-for-virtctl' }, spec: { pvcName } };
  const r = await exchangeJson<{ status?: { token?: string }; message?: string }>(kc, 'POST', `/apis/upload.cdi.kubevirt.io/v1beta1/namespaces/${NS}/uploadtokenrequests`, body);
  return { status: r.status, token: r.json?.status?.token, message: r.json?.message };
}

async function post(token: string | undefined, query = '', body: Buffer = Buffer.alloc(1 << 20, 7)): Promise<{ status: number; text: string }> {
  const res = await fetch(`${base}/v1beta1/upload${query}`, { method: 'POST', body: new Uint8Array(body), headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, text: (await res.text()).trim() };
}

/** an upload DataVolume on `shared` storage, brought to UploadReady (its Pod marked Running, as a kubelet would) */
async function uploadReady(name: string): Promise<void> {
  const dv = { apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', metadata: { name }, spec: { source: { upload: {} }, storage: { storageClassName: 'shared', resources: { requests: { storage: '16Mi' } } } } };
  expect((await exchangeJson(api.kc, 'POST', dvPath(), dv)).status).toBe(201);
  await playKubelet(name);
}

/** marks the DataVolume's upload Pod Running once it exists and waits for UploadReady */
async function playKubelet(name: string): Promise<void> {
  const core = api.kc.makeApiClient(CoreV1Api);
  const pod = await waitFor(async () => (await core.listNamespacedPod({ namespace: NS })).items.find((p) => p.metadata?.labels?.['cdi.kubevirt.io/dataVolume'] === name), 20_000, 'the upload pod');
  const put = await exchangeJson(api.kc, 'PUT', `/api/v1/namespaces/${NS}/pods/${pod.metadata!.name}/status`, { ...pod, apiVersion: 'v1', kind: 'Pod', status: { ...pod.status, phase: 'Running' } });
  expect(put.status).toBe(200);
  await waitFor(async () => (await dvPhase(name)) === 'UploadReady', 20_000, `${name} UploadReady`);
}

async function serviceAccountWithRole(name: string, role: string): Promise<KubeConfig> {
  expect((await exchangeJson(api.kc, 'POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name } })).status).toBe(201);
  const rb = { metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role }, subjects: [{ kind: 'ServiceAccount', name, namespace: NS }] };
  expect((await exchangeJson(api.kc, 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`, rb)).status).toBe(201);
  const tr = await exchangeJson<{ status: { token: string } }>(api.kc, 'POST', `/api/v1/namespaces/${NS}/serviceaccounts/${name}/token`, { spec: {} });
  const cluster = api.kc.getCurrentCluster()!;
  return makeKubeConfig({ server: cluster.server, token: tr.json!.status.token, caPem: Buffer.from(cluster.caData!, 'base64').toString() });
}

beforeAll(async () => {
  api = await startTestApiServer();
  dir = mkdtempSync(join(tmpdir(), 'kv-upload-'));
  await ensureStorageClasses(api.kc);
  const core = api.kc.makeApiClient(CoreV1Api);
  const dataVolumes = new DataVolumeController({ kc: api.kc, core, custom: api.kc.makeApiClient(CustomObjectsApi), recorder: new EventRecorder(core, { component: 'datavolume-controller' }), dataDir: api.dataDir });
  void new VolumeController({ kc: api.kc, core, recorder: new EventRecorder(core, { component: 'persistentvolume-controller' }), dataDir: api.dataDir }).run(stop.signal);
  void dataVolumes.run(stop.signal);
  server = createUploadServer(api.kc, { resolve: (ns, n) => dataVolumes.uploadTarget(ns, n), finished: (ns, n, o) => dataVolumes.uploadFinished(ns, n, o) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  users.editor = await serviceAccountWithRole('editor', 'edit');
  users.viewer = await serviceAccountWithRole('viewer', 'view');
}, 60_000);

afterAll(async () => {
  stop.abort();
  server?.close();
  await api?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('upload with an UploadTokenRequest token', () => {
  it('an editor uploads with the token alone: the DataVolume Succeeds with the bytes in disk.img', async () => {
    await uploadReady('disk');
    const got = await tokenFor(users.editor!, 'disk');
    expect(got.status).toBe(200);
    const r = await post(got.token, '', Buffer.alloc(1 << 20, 0x5a));
    expect(r).toEqual({ status: 200, text: 'Upload Complete' });
    await waitFor(async () => (await dvPhase('disk')) === 'Succeeded', 20_000, 'disk Succeeded');
    const core = api.kc.makeApiClient(CoreV1Api);
    const pvc = await core.readNamespacedPersistentVolumeClaim({ namespace: NS, name: 'disk' });
    const pv = await core.readPersistentVolume({ name: pvc.spec!.volumeName! });
    const disk = readFileSync(join(pv.spec!.local?.path ?? pv.spec!.hostPath!.path, 'disk.img'));
    expect(disk.subarray(0, 1 << 20).every((b) => b === 0x5a)).toBe(true);
  }, 60_000);

  it('refuses a token for another PVC, an expired token, a forged one, and no token, with CDI\'s statuses', async () => {
    await uploadReady('target');
    const other = await tokenFor(users.editor!, 'elsewhere');
    expect(other.status).toBe(200);
    // the token names its PVC: it cannot be pointed at another one
    expect(await post(other.token, `?namespace=${NS}&name=target`)).toEqual({ status: 401, text: `the upload token is for PVC ${NS}/elsewhere, not ${NS}/target` });
    // alone, it goes to its own PVC, which is no upload DataVolume
    expect((await post(other.token)).status).toBe(404);
    const key = signingKey();
    const expired = signUploadToken(key, { namespace: NS, pvcName: 'target' }, Math.floor(Date.now() / 1000) - 400).token;
    expect(await post(expired)).toEqual({ status: 401, text: 'the upload token has expired: ask for a new one with an UploadTokenRequest' });
    const forged = signUploadToken(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey, { namespace: NS, pvcName: 'target' }).token;
    expect(await post(forged)).toEqual({ status: 401, text: 'invalid upload token' });
    expect((await post(undefined)).status).toBe(400);
    expect(await dvPhase('target')).toBe('UploadReady'); // nothing was written
    const good = await tokenFor(users.editor!, 'target');
    expect((await post(good.token)).status).toBe(200);
  }, 60_000);

  it('a viewer cannot get a token (kube\'s 403)', async () => {
    const r = await tokenFor(users.viewer!, 'disk');
    expect(r.status).toBe(403);
    expect(r.message).toBe(`uploadtokenrequests.upload.cdi.kubevirt.io is forbidden: User "system:serviceaccount:${NS}:viewer" cannot create resource "uploadtokenrequests" in API group "upload.cdi.kubevirt.io" in the namespace "${NS}"`);
  });

  it('still takes the caller\'s own token naming the DataVolume in the query (ours)', async () => {
    await uploadReady('compat');
    const token = users.editor!.getCurrentUser()!.token!;
    expect(await post(token, `?namespace=${NS}&name=compat`)).toEqual({ status: 200, text: 'Upload Complete' });
  }, 60_000);
});

describe('virtctl image-upload', () => {
  it('creates the DataVolume, asks for an upload token and uploads with it, printing what KubeVirt\'s virtctl prints', async () => {
    const image = join(dir, 'disk.raw');
    writeFileSync(image, Buffer.alloc(2 << 20, 0x33));
    const out = { stdout: '', stderr: '' };
    const run = imageUploadCommand(['dv', 'vdisk', '--size=16Mi', `--image-path=${image}`, '--storage-class=shared', '--uploadproxy-url', base, '--kubeconfig', kubeconfigOf('editor')], { stdout: (t) => { out.stdout += t; }, stderr: (t) => { out.stderr += t; } });
    await playKubelet('vdisk');
    await run;
    expect(out.stdout).toBe([
      `PVC ${NS}/vdisk not found `, `DataVolume ${NS}/vdisk created`, 'Waiting for PVC vdisk upload pod to be ready...', 'Pod now ready', `Uploading data to ${base}`, '',
      '', 'Uploading data completed successfully, waiting for processing to complete, you can hit ctrl-c without interrupting the progress',
      'Processing completed successfully', 'Uploading disk.raw completed successfully', '',
    ].join('\n'));
    expect(await dvPhase('vdisk')).toBe('Succeeded');
  }, 60_000);

  it('a user who may not ask for an upload token is stopped with kube\'s message, the DataVolume untouched', async () => {
    await uploadReady('noaccess');
    const image = join(dir, 'small.raw');
    writeFileSync(image, Buffer.alloc(1 << 20, 1));
    const run = imageUploadCommand(['dv', 'noaccess', '--no-create', `--image-path=${image}`, '--uploadproxy-url', base, '--kubeconfig', kubeconfigOf('viewer')], { stdout: () => {}, stderr: () => {} });
    await expect(run).rejects.toThrow(`uploadtokenrequests.upload.cdi.kubevirt.io is forbidden: User "system:serviceaccount:${NS}:viewer" cannot create resource "uploadtokenrequests"`);
    expect(await dvPhase('noaccess')).toBe('UploadReady');
  }, 60_000);
});

/** a kubeconfig file for one of the test's users */
function kubeconfigOf(user: string): string {
  const path = join(dir, `kubeconfig-${user}`);
  const cluster = api.kc.getCurrentCluster()!;
  writeKubeconfig(path, { server: cluster.server, caPem: Buffer.from(cluster.caData!, 'base64').toString(), token: users[user]!.getCurrentUser()!.token! });
  return path;
}

/** the API server's signing key, read from its data dir (only to mint an expired token for the test) */
function signingKey(): KeyObject {
  return createPrivateKey(readFileSync(join(api.dataDir, 'apiserver', 'pki', 'cdi-upload-token.key')));
}
