/**
 * A VMI create the API server refuses (virt-api's webhook down: a failing webhook with
 * failurePolicy Fail) is tried again by the VM controller with its queue's backoff, so the VM starts
 * once the cause is gone — with no other event to wake it (the crash storm found a VM left Stopped
 * for good after one refused create).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, waitFor, type TestServer } from '../../apiserver/testing/test-server';
import { writeAdminKubeconfig } from '../../apiserver/testing/admin-kubeconfig';
import { makeKubeClients } from '../../kube/clients';
import { EventRecorder } from '../../kube/events';
import { loadKubeConfig } from '../../kube/kubeconfig';
import { VMController } from './vm-controller';

let api: TestServer;
const abort = new AbortController();
const HOOKS = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const VMS = '/apis/kubevirt.io/v1/namespaces/default/virtualmachines';
const VMIS = '/apis/kubevirt.io/v1/namespaces/default/virtualmachineinstances';

beforeAll(async () => {
  api = await startTestServer();
  const kubeconfig = writeAdminKubeconfig(api);
  const clients = makeKubeClients(loadKubeConfig(kubeconfig));
  void new VMController({ clients, recorder: new EventRecorder(clients.core, { component: 'test' }) }).run(abort.signal);
}, 60_000);

afterAll(async () => {
  abort.abort();
  await api?.close();
});

it('a VMI create refused while a webhook is down is retried, and the VM starts once the webhook is gone', async () => {
  const hook = {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'down' },
    webhooks: [{
      name: 'down.example.com', failurePolicy: 'Fail', sideEffects: 'None', admissionReviewVersions: ['v1'], timeoutSeconds: 2,
      clientConfig: { url: 'https://127.0.0.1:1/validate' },
      rules: [{ apiGroups: ['kubevirt.io'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['virtualmachineinstances'] }],
    }],
  };
  expect((await api.call('POST', HOOKS, hook)).status).toBe(201);
  const vm = { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name: 'retried' }, spec: { runStrategy: 'Always', template: { spec: { domain: { memory: { guest: '128Mi' }, devices: {} } } } } };
  expect((await api.call('POST', VMS, vm)).status).toBe(201);
  const failure = await waitFor(async () => ((await api.call('GET', `${VMS}/retried`)).body.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Failure'), 15_000, 'the Failure condition');
  expect(failure).toMatchObject({ status: 'True', reason: 'FailedCreate' });
  expect((await api.call('GET', `${VMIS}/retried`)).status).toBe(404);
  expect((await api.call('DELETE', `${HOOKS}/down`)).status).toBe(200);
  await waitFor(async () => (await api.call('GET', `${VMIS}/retried`)).status === 200, 15_000, 'the VMI created after the webhook went away');
});
