import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdmissionListener, handleAdmissionRequest } from './webhook-server';
import type { AdmissionResponse, AdmissionReview } from './admission-review';
import { webhookConfigurations } from './webhook-configurations';
import { validVM } from './test-fixtures';

const lookups = { getVMI: () => undefined, listMigrations: () => [] };
const review = (resource: string, object: unknown, operation = 'CREATE', group = 'kubevirt.io') => ({
  apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
  request: { uid: 'req-1', operation, resource: { group, version: 'v1', resource }, userInfo: { username: 'alice' }, object },
});

/** the AdmissionReview's response of a handled request (every path below answers with a review) */
async function responseOf(path: string, body: unknown): Promise<AdmissionResponse> {
  return ((await handleAdmissionRequest(path, body, lookups)).body as AdmissionReview).response;
}

interface WebhookConfig {
  kind: string;
  webhooks: { name: string; clientConfig: { url?: string; service?: object; caBundle?: string } }[];
}
const configurations = (target: Parameters<typeof webhookConfigurations>[0]) => webhookConfigurations(target) as unknown as WebhookConfig[];

describe('handleAdmissionRequest', () => {
  it('denies an invalid VM with KubeVirt message, 422 Invalid and the causes', async () => {
    const vm = validVM();
    vm.spec.running = true;
    const r = await handleAdmissionRequest('/validate-virtualmachines', review('virtualmachines', vm), lookups);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      kind: 'AdmissionReview',
      response: {
        uid: 'req-1', allowed: false,
        status: { code: 422, reason: 'Invalid', message: 'Running and RunStrategy are mutually exclusive. Note that Running is deprecated, please use RunStrategy instead', details: { causes: [{ type: 'FieldValueInvalid', field: 'spec.running' }] } },
      },
    });
  });

  it('joins several causes with ", "', async () => {
    const vm = validVM();
    delete vm.spec.runStrategy;
    vm.spec.template.spec.domain.devices.disks[0].name = 'x';
    const response = await responseOf('/validate-virtualmachines', review('virtualmachines', vm));
    expect(response.status?.message).toBe("RunStrategy must be specified, spec.template.spec.domain.devices.disks[0].Name 'x' not found.");
  });

  it('returns a base64 JSONPatch from a mutating path', async () => {
    const response = await responseOf('/mutate-virtualmachines', review('virtualmachines', validVM()));
    expect(response).toMatchObject({ allowed: true, patchType: 'JSONPatch' });
    const patch = JSON.parse(Buffer.from(response.patch!, 'base64').toString());
    expect(patch).toContainEqual({ op: 'add', path: '/spec/template/spec/domain/machine', value: { type: 'q35' } });
  });

  it.each<[string, string, unknown, number]>([
    ['unknown path', '/nope', review('virtualmachines', {}), 404],
    ['not a review', '/validate-virtualmachines', { hello: 1 }, 400],
    ['no request uid', '/validate-virtualmachines', { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: {} }, 400],
    ['v1beta1 review', '/validate-virtualmachines', { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', request: { uid: 'x' } }, 400],
  ])('%s → HTTP %i', async (_n, path, body, status) => {
    expect((await handleAdmissionRequest(path, body, lookups)).status).toBe(status);
  });

  it('refuses a review for the wrong resource with a 400 denial', async () => {
    const response = await responseOf('/validate-virtualmachines', review('pods', {}, 'CREATE', ''));
    expect(response).toMatchObject({ allowed: false, status: { code: 400 } });
  });

  it('allows DELETE without looking at the object', async () => {
    const response = await responseOf('/validate-virtualmachines', review('virtualmachines', null, 'DELETE'));
    expect(response.allowed).toBe(true);
  });
});

describe('createAdmissionListener', () => {
  it('answers 400 for a body that is not JSON and 200 for a review', async () => {
    const server = createServer(createAdmissionListener(lookups));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    try {
      const post = (body: string) => fetch(`http://127.0.0.1:${port}/validate-virtualmachines`, { method: 'POST', body });
      expect((await post('{not json')).status).toBe(400);
      const ok = await post(JSON.stringify(review('virtualmachines', validVM())));
      expect(ok.status).toBe(200);
      expect((await ok.json()).response.allowed).toBe(true);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('webhookConfigurations', () => {
  it('builds mutating and validating configurations with KubeVirt webhook names', () => {
    const [m, v] = configurations({ url: 'https://127.0.0.1:8443', caBundle: 'Q0E=' });
    expect(m.kind).toBe('MutatingWebhookConfiguration');
    expect(v.kind).toBe('ValidatingWebhookConfiguration');
    expect(v.webhooks.map((w) => w.name)).toContain('virtualmachine-validator.kubevirt.io');
    for (const w of [...m.webhooks, ...v.webhooks]) {
      expect(w).toMatchObject({ failurePolicy: 'Fail', sideEffects: 'None', admissionReviewVersions: ['v1'], timeoutSeconds: 10 });
      expect(w.clientConfig.url).toMatch(/^https:\/\/127\.0\.0\.1:8443\/(mutate|validate)-/);
    }
  });
  it('targets a service in cluster mode', () => {
    const [m] = configurations({ service: { namespace: 'kubevirt', name: 'virt-api' }, caBundle: 'Q0E=' });
    expect(m.webhooks[0].clientConfig).toEqual({ service: { namespace: 'kubevirt', name: 'virt-api', port: 443, path: '/mutate-virtualmachines' }, caBundle: 'Q0E=' });
  });
});
