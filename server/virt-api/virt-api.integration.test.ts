/**
 * virt-api against the real embedded API server, with the VM controller running (no nodes: VMIs
 * stay Pending). Calls go directly to virt-api with bearer tokens (the aggregation path is
 * covered in e2e once the API server proxies subresources.kubevirt.io).
 */
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestServer, waitFor, type TestServer } from '../apiserver/testing/test-server';
import { writeAdminKubeconfig } from '../apiserver/testing/admin-kubeconfig';
import { makeKubeClients } from '../kube/clients';
import { EventRecorder } from '../kube/events';
import { loadKubeConfig } from '../kube/kubeconfig';
import { VMController } from '../virt-controller/vm/vm-controller';
import { startVirtApi, type VirtApi } from './virt-api-server';

let api: TestServer;
let virtApi: VirtApi;
const abort = new AbortController();
const VMS = '/apis/kubevirt.io/v1/namespaces/default/virtualmachines';
const sub = (name: string, verb: string) => `/apis/subresources.kubevirt.io/v1/namespaces/default/virtualmachines/${name}/${verb}`;

function call(method: string, path: string, token: string | undefined, body?: object): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const req = request(`${virtApi.url}${path}`, { method, headers, ca: api.srv.caPem }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

const vmManifest = (name: string, runStrategy: string) => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name, namespace: 'default' },
  spec: {
    runStrategy,
    template: { spec: { domain: { memory: { guest: '128Mi' }, devices: { disks: [{ name: 'root', disk: {} }] } }, volumes: [{ name: 'root', containerDisk: { image: 'demo' } }] } },
  },
});
const getVM = async (name: string) => (await api.call('GET', `${VMS}/${name}`)).body;

beforeAll(async () => {
  api = await startTestServer();
  const kubeconfig = writeAdminKubeconfig(api);
  virtApi = await startVirtApi({ kubeconfig, dataDir: api.dataDir });
  const clients = makeKubeClients(loadKubeConfig(kubeconfig));
  void new VMController({ clients, recorder: new EventRecorder(clients.core, { component: 'test' }) }).run(abort.signal);
});

afterAll(async () => {
  abort.abort();
  await virtApi?.close();
  await api?.close();
});

describe('registration', () => {
  it('registers the APIService and the webhooks, and the API server calls the mutator', async () => {
    expect((await api.call('GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1.subresources.kubevirt.io')).status).toBe(200);
    const created = await api.call('POST', VMS, vmManifest('mutated', 'Halted'));
    expect(created.status).toBe(201);
    expect(created.body.spec.template.spec.domain.firmware?.uuid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves discovery', async () => {
    const res = await call('GET', '/apis/subresources.kubevirt.io/v1', undefined);
    expect(res.body.resources.map((r: { name: string }) => r.name)).toEqual(expect.arrayContaining(['virtualmachines/start', 'virtualmachineinstances/vnc']));
  });
});

describe('lifecycle through virt-api', () => {
  it('starts a Halted VM (202), refuses a second start (409), stops it (202)', async () => {
    expect((await api.call('POST', VMS, vmManifest('halted', 'Halted'))).status).toBe(201);
    expect((await call('PUT', sub('halted', 'start'), api.srv.adminToken)).status).toBe(202);
    expect((await getVM('halted')).spec.runStrategy).toBe('Always');
    await waitFor(async () => (await getVM('halted')).status?.printableStatus === 'Starting', 10_000, 'Starting');
    const again = await call('PUT', sub('halted', 'start'), api.srv.adminToken);
    expect([again.status, again.body.message]).toEqual([409, 'Operation cannot be fulfilled on virtualmachine.kubevirt.io "halted": VM is already running']);
    expect((await call('PUT', sub('halted', 'stop'), api.srv.adminToken)).status).toBe(202);
    expect((await getVM('halted')).spec.runStrategy).toBe('Halted');
  });

  it('queues a Start for a Manual VM; the controller creates the VMI and trims the request', async () => {
    expect((await api.call('POST', VMS, vmManifest('manual', 'Manual'))).status).toBe(201);
    expect((await call('PUT', sub('manual', 'start'), api.srv.adminToken)).status).toBe(202);
    const vm = await waitFor(async () => {
      const v = await getVM('manual');
      return v.status?.created && !v.status?.stateChangeRequests ? v : undefined;
    }, 10_000, 'VMI created and request trimmed');
    expect(vm.status.printableStatus).toBe('Starting');
    const vmi = (await api.call('GET', '/apis/kubevirt.io/v1/namespaces/default/virtualmachineinstances/manual')).body;
    expect(vmi.metadata.ownerReferences[0]).toMatchObject({ kind: 'VirtualMachine', name: 'manual', controller: true });
    expect(vmi.metadata.annotations['kubevirt.io/vm-generation']).toBe('1');
  });

  it('changes nothing on a dry run', async () => {
    expect((await api.call('POST', VMS, vmManifest('dry', 'Halted'))).status).toBe(201);
    expect((await call('PUT', sub('dry', 'start'), api.srv.adminToken, { dryRun: ['All'] })).status).toBe(202);
    expect((await getVM('dry')).spec.runStrategy).toBe('Halted');
  });

  it.each([
    ['viewer token', 'PUT', 'start', () => api.srv.viewerToken, 403, 'virtualmachine.kubevirt.io "dry" is forbidden: User "viewer" cannot update resource "virtualmachines/start" in API group "subresources.kubevirt.io" in the namespace "default"'],
    ['no token', 'PUT', 'start', () => undefined, 401, 'Unauthorized'],
    ['wrong method', 'GET', 'start', () => api.srv.adminToken, 405, 'GET is not supported on start'],
    ['unknown subresource', 'PUT', 'fly', () => api.srv.adminToken, 404, 'the server could not find the requested resource (virtualmachine.kubevirt.io fly)'],
    ['missing VM', 'PUT', 'start', () => api.srv.adminToken, 404, 'virtualmachine.kubevirt.io "nope" not found'],
    ['bad body', 'PUT', 'stop', () => api.srv.adminToken, 400, 'Can not unmarshal Request body to struct, error: json: cannot unmarshal field "gracePeriod"'],
  ])('%s → %i', async (name, method, verb, token, code, message) => {
    const res = await call(method, sub(name === 'missing VM' ? 'nope' : 'dry', verb), token(), name === 'bad body' ? { gracePeriod: 'soon' } : undefined);
    expect([res.status, res.body?.message]).toEqual([code, message]);
  });
});

describe('console sockets', () => {
  it('refuses a WebSocket from a foreign Origin with 403 before upgrading', async () => {
    const url = `${virtApi.url.replace('https', 'wss')}/apis/subresources.kubevirt.io/v1/namespaces/default/virtualmachineinstances/manual/vnc`;
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(url, 'plain.kubevirt.io', { ca: api.srv.caPem, origin: 'https://evil.example', headers: { authorization: `Bearer ${api.srv.adminToken}` } });
      ws.on('unexpected-response', (_req, res) => { resolve(res.statusCode ?? 0); res.resume(); });
      ws.on('open', () => { ws.close(); reject(new Error('upgraded')); });
      ws.on('error', reject);
    });
    expect(status).toBe(403);
  });
});
