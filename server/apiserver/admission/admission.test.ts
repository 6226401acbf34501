import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmission, setServiceResolver, defaultServiceResolver, type AdmissionInput, type AdmissionResult } from './index';
import type { AdmittedObject, Webhook } from './webhook-rules';
import { createTestPKI, type TestPKI } from './testing/test-pki';

/** What the fake virt-api webhook server does per path. */
/** what the handlers read of an AdmissionReview's request */
interface ReviewRequest { uid: string; object?: AdmittedObject & { spec?: { runStrategy?: string } } }
type Handler = (request: ReviewRequest) => object | 'hang' | 'bad-uid';
const handlers: Record<string, Handler> = {
  '/mutate-label': (req) => ({ allowed: true, patchType: 'JSONPatch', patch: b64([{ op: 'add', path: '/metadata/labels/mutated', value: 'yes' }]), warnings: ['spec.running is deprecated, please use spec.runStrategy instead.'] }),
  '/mutate-second': (req) => ({ allowed: true, patchType: 'JSONPatch', patch: b64([{ op: 'add', path: '/metadata/labels/sawFirst', value: req.object?.metadata?.labels?.mutated ?? 'no' }]) }),
  '/deny-running': (req) => (req.object?.spec?.runStrategy === 'Bogus'
    ? { allowed: false, status: { code: 422, reason: 'Invalid', message: 'Invalid RunStrategy (Bogus)', details: { causes: [{ reason: 'FieldValueInvalid', field: 'spec.runStrategy', message: 'Invalid RunStrategy (Bogus)' }] } } }
    : { allowed: true }),
  '/deny-bare': () => ({ allowed: false }),
  '/allow': () => ({ allowed: true, warnings: ['validated'] }),
  '/hang': () => 'hang',
  '/bad-uid': () => 'bad-uid',
};
const seen: { path: string; review: { request: ReviewRequest } }[] = [];
let pki: TestPKI;
let server: Server;
let port: number;

const b64 = (ops: object) => Buffer.from(JSON.stringify(ops)).toString('base64');

beforeAll(async () => {
  pki = createTestPKI(['virt-api.kubevirt.svc']);
  server = createServer({ cert: pki.certPem, key: pki.keyPem }, (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const review = JSON.parse(body);
      seen.push({ path: req.url!, review });
      const out = handlers[new URL(req.url!, 'https://x').pathname](review.request);
      if (out === 'hang') return;
      const uid = out === 'bad-uid' ? 'not-the-uid' : review.request.uid;
      const response = out === 'bad-uid' ? { allowed: true } : out;
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid, ...response } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  setServiceResolver((ns, name, p) => (ns === 'kubevirt' && name === 'virt-api' ? `https://127.0.0.1:${port}` : defaultServiceResolver(ns, name, p)));
});

afterAll(async () => {
  setServiceResolver(defaultServiceResolver);
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const vmRule = [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['kubevirt.io'], apiVersions: ['v1'], resources: ['virtualmachines'] }];
const webhook = (name: string, path: string, extra: Partial<Webhook> = {}) => ({
  name, rules: vmRule, sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Fail',
  clientConfig: { service: { namespace: 'kubevirt', name: 'virt-api', path }, caBundle: pki.caBundle }, ...extra,
});
const config = (name: string, webhooks: Webhook[]) => ({ metadata: { name }, webhooks });
const input = (over: Partial<AdmissionInput> = {}): AdmissionInput => ({
  operation: 'CREATE',
  rt: { group: 'kubevirt.io', version: 'v1', resource: 'virtualmachines', kind: 'VirtualMachine' },
  namespace: 'default',
  name: 'vm1',
  object: { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name: 'vm1', labels: {} }, spec: { runStrategy: 'Always' } },
  user: { username: 'alice', groups: ['system:authenticated'] },
  dryRun: false,
  mutating: [],
  validating: [],
  ...over,
});

/** the Status of a refused admission */
const refusal = (r: AdmissionResult) => (r.allowed ? undefined : r.status);

describe('runAdmission', () => {
  it('applies mutating patches in order and collects warnings, then validates', async () => {
    const r = await runAdmission(input({
      mutating: [config('b-second', [webhook('second.kubevirt.io', '/mutate-second')]), config('a-first', [webhook('first.kubevirt.io', '/mutate-label')])],
      validating: [config('v', [webhook('validate.kubevirt.io', '/allow')])],
    }));
    expect(r).toEqual({
      allowed: true,
      object: expect.objectContaining({ metadata: { name: 'vm1', labels: { mutated: 'yes', sawFirst: 'yes' } } }),
      warnings: ['spec.running is deprecated, please use spec.runStrategy instead.', 'validated'],
    });
    const sent = seen.find((s) => s.path.startsWith('/allow'))!;
    expect(sent.path).toBe('/allow?timeout=10s');
    expect(sent.review.request).toMatchObject({
      operation: 'CREATE', name: 'vm1', namespace: 'default', userInfo: { username: 'alice' },
      kind: { group: 'kubevirt.io', version: 'v1', kind: 'VirtualMachine' },
      resource: { group: 'kubevirt.io', version: 'v1', resource: 'virtualmachines' },
      object: { metadata: { labels: { mutated: 'yes' } } },
    });
  });

  it('turns a denial into the webhook\'s Status with kube\'s message', async () => {
    const obj = { metadata: { name: 'vm1' }, spec: { runStrategy: 'Bogus' } };
    const r = await runAdmission(input({ object: obj, validating: [config('v', [webhook('virtualmachine-validator.kubevirt.io', '/deny-running')])] }));
    expect(r).toEqual({
      allowed: false,
      status: expect.objectContaining({
        code: 422, reason: 'Invalid', status: 'Failure',
        message: 'admission webhook "virtualmachine-validator.kubevirt.io" denied the request: Invalid RunStrategy (Bogus)',
        details: { causes: [expect.objectContaining({ field: 'spec.runStrategy' })] },
      }),
    });
  });

  it('says "without explanation" and 400 when a denial carries no status', async () => {
    const r = await runAdmission(input({ validating: [config('v', [webhook('quiet', '/deny-bare')])] }));
    expect(refusal(r)).toMatchObject({ code: 400, message: 'admission webhook "quiet" denied the request without explanation' });
  });

  it.each([
    ['an untrusted certificate', { caBundle: Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n').toString('base64') }, '/allow'],
    ['a response with the wrong uid', {}, '/bad-uid'],
    ['a service nobody serves', { service: { namespace: 'nowhere', name: 'nothing', path: '/x', port: 1 } }, '/allow'],
  ])('fails closed on %s (failurePolicy Fail → 500) and opens with Ignore', async (_n, clientOverride, path) => {
    const base = webhook('w', path);
    const broken = { ...base, clientConfig: { ...base.clientConfig, ...clientOverride } };
    const fail = await runAdmission(input({ validating: [config('v', [broken])] }));
    expect(fail.allowed).toBe(false);
    expect(refusal(fail)).toMatchObject({ code: 500, reason: 'InternalError' });
    expect(refusal(fail)?.message).toMatch(/^Internal error occurred: failed calling webhook "w": /);
    const ignore = await runAdmission(input({ validating: [config('v', [{ ...broken, failurePolicy: 'Ignore' }])] }));
    expect(ignore.allowed).toBe(true);
  });

  it('gives up after timeoutSeconds', async () => {
    const started = Date.now();
    const r = await runAdmission(input({ validating: [config('v', [webhook('slow', '/hang', { timeoutSeconds: 1 })])] }));
    expect(refusal(r)?.message).toContain('context deadline exceeded');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses dry-run requests to webhooks with side effects', async () => {
    const r = await runAdmission(input({ dryRun: true, validating: [config('v', [webhook('effects', '/allow', { sideEffects: 'Some' })])] }));
    expect(refusal(r)).toMatchObject({ code: 400, reason: 'BadRequest', message: 'admission webhook "effects" does not support dry run' });
  });

  it('keeps one connection to a webhook across reviews, but never lends it to a webhook with another CA', async () => {
    let connections = 0;
    const count = () => { connections++; };
    server.on('secureConnection', count);
    try {
      for (let i = 0; i < 3; i++) expect((await runAdmission(input({ validating: [config('v', [webhook('allow', '/allow')])] }))).allowed).toBe(true);
      expect(connections).toBe(1);
      // a caBundle that did not sign the server's certificate fails, though a verified socket to the same address is idle
      const other = createTestPKI(['virt-api.kubevirt.svc']);
      const r = await runAdmission(input({ validating: [config('v', [webhook('allow', '/allow', { clientConfig: { service: { namespace: 'kubevirt', name: 'virt-api', path: '/allow' }, caBundle: other.caBundle } })])] }));
      expect(refusal(r)?.message).toMatch(/failed calling webhook "allow".*certificate/);
    } finally {
      server.off('secureConnection', count);
    }
  });

  it('calls nothing when no rule matches', async () => {
    const before = seen.length;
    const r = await runAdmission(input({ operation: 'DELETE', object: undefined, validating: [config('v', [webhook('deny', '/deny-bare')])] }));
    expect(r).toEqual({ allowed: true, object: undefined, warnings: [] });
    expect(seen.length).toBe(before);
  });
});
