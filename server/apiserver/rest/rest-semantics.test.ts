import { request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, waitFor, type TestServer } from '../testing/test-server';

let t: TestServer;
const NS = '/api/v1/namespaces/default';
const cm = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data: { a: '1' } });
const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';
const widgetCRD = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'], categories: ['all'] },
    versions: [{
      name: 'v1', served: true, storage: true, subresources: { status: {} },
      additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }],
      schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    }],
  },
};

beforeAll(async () => {
  t = await startTestServer({ crdDir: '/nonexistent', bookmarkIntervalMs: 200, nodeLeaseTimeoutMs: 400 });
  const r = await t.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', widgetCRD);
  expect(r.status).toBe(201);
});
afterAll(async () => { await t?.close(); });

describe('authentication and authorization', () => {
  it.each([
    ['anonymous', null, 'GET', `${NS}/configmaps`, 401, 'Unauthorized'],
    ['viewer reads', 'viewer', 'GET', `${NS}/configmaps`, 200, undefined],
    ['viewer writes', 'viewer', 'POST', `${NS}/configmaps`, 403, 'Forbidden'],
    ['anonymous /version', null, 'GET', '/version', 200, undefined],
  ])('%s', async (_n, who, method, path, status, reason) => {
    const token = who === 'viewer' ? t.srv.viewerToken : who;
    const r = await t.call(method as string, path as string, method === 'POST' ? cm('x-viewer') : undefined, { token: token as string | null });
    expect(r.status).toBe(status);
    if (reason) expect(r.body).toMatchObject({ kind: 'Status', reason, code: status });
  });
});

describe('metrics', () => {
  it('counts requests by verb, resource and code at /metrics', async () => {
    await t.call('GET', `${NS}/configmaps/metrics-missing`);
    const text = (await t.call('GET', '/metrics', undefined, { accept: 'text/plain' })).body as string;
    expect(text).toMatch(/apiserver_request_total\{verb="GET",group="",resource="configmaps",subresource="",code="404"\} \d+/);
  });

  it('counts the store\'s commits and the writes they carried', async () => {
    const read = async () => {
      const text = (await t.call('GET', '/metrics', undefined, { accept: 'text/plain' })).body as string;
      const value = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
      return { commits: value('kv_store_commits_total'), writes: value('kv_store_committed_writes_total') };
    };
    const before = await read();
    const created = await Promise.all(Array.from({ length: 20 }, (_, i) => t.call('POST', `${NS}/configmaps`, cm(`metrics-${i}`))));
    expect(created.map((r) => r.status)).toEqual(Array(20).fill(201));
    const after = await read();
    expect(after.writes - before.writes).toBeGreaterThanOrEqual(20);
    expect(after.commits - before.commits).toBeGreaterThanOrEqual(1);
    expect(after.commits - before.commits).toBeLessThanOrEqual(after.writes - before.writes);
  });

  it('counts TLS connections, full handshakes apart from resumed sessions', async () => {
    const read = async () => {
      const text = (await t.call('GET', '/metrics', undefined, { accept: 'text/plain' })).body as string;
      const value = (resumed: boolean) => Number(new RegExp(`^kubevirt_ts_apiserver_tls_connections_total\\{resumed="${resumed}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
      return { full: value(false), resumed: value(true) };
    };
    // a client that does not keep its connection: each request its own TLS connection
    const fresh = (session?: Buffer) => new Promise<Buffer | undefined>((resolve, reject) => {
      let ticket: Buffer | undefined;
      const req = httpsRequest(`${t.srv.url}/version`, { ca: t.srv.caPem, agent: false, ...(session ? { session } : {}) }, (res) => {
        res.resume();
        res.on('end', () => resolve(ticket));
      });
      req.on('socket', (s) => s.on('session', (b: Buffer) => { ticket = b; }));
      req.on('error', reject);
      req.end();
    });
    const before = await read();
    const session = await fresh();
    await fresh();
    expect(session).toBeInstanceOf(Buffer);
    await fresh(session);
    const after = await read();
    expect(after.full - before.full).toBeGreaterThanOrEqual(2);
    expect(after.resumed - before.resumed).toBeGreaterThanOrEqual(1);
  });
});

describe('authentication reviews', () => {
  it.each([
    ['admin', ['system:masters', 'system:authenticated']],
    ['viewer', ['kv:viewers', 'system:authenticated']],
  ])('TokenReview and SelfSubjectReview name the %s', async (who, groups) => {
    const token = who === 'admin' ? t.srv.adminToken : t.srv.viewerToken;
    const tr = await t.call('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } });
    expect(tr.body.status).toMatchObject({ authenticated: true, user: { username: who, groups } });
    const self = await t.call('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, { token });
    expect(self.body.status.userInfo.username).toBe(who);
  });

  it('a TokenReview of an unknown token is not authenticated, and the viewer may not ask', async () => {
    const body = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'nope' } };
    expect((await t.call('POST', '/apis/authentication.k8s.io/v1/tokenreviews', body)).body.status.authenticated).toBe(false);
    expect((await t.call('POST', '/apis/authentication.k8s.io/v1/tokenreviews', body, { token: t.srv.viewerToken })).status).toBe(403);
  });
});

describe('create', () => {
  it.each([
    ['generateName', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } }, '', 201, /^gen-[a-z0-9]{5}$/],
    ['dryRun=All is not stored', cm('dry'), '?dryRun=All', 201, /^dry$/],
    ['missing name', { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} }, '', 422, undefined],
  ])('%s', async (_n, body, query, status, nameRe) => {
    const r = await t.call('POST', `${NS}/configmaps${query}`, body);
    expect(r.status).toBe(status);
    if (nameRe) expect(r.body.metadata.name).toMatch(nameRe);
    if (query) expect((await t.call('GET', `${NS}/configmaps/dry`)).status).toBe(404);
  });

  it.each([
    ['a bad label value', cm('badlabel', { labels: { app: 'bad value!' } }), 'metadata.labels: Invalid value: "bad value!": a valid label must be an empty string'],
    ['a bad label key', cm('badkey', { labels: { '-x': 'y' } }), 'metadata.labels: Invalid value: "-x": name part must consist of alphanumeric characters'],
    ['an owner reference without uid', cm('badref', { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o' }] }), 'metadata.ownerReferences[0].uid: Invalid value: "": uid must not be empty'],
  ])('rejects %s with 422 Invalid', async (_n, body, message) => {
    const r = await t.call('POST', `${NS}/configmaps`, body);
    expect(r.status).toBe(422);
    expect(r.body.message).toContain(message);
    expect(r.body.details.causes[0].field).toMatch(/^metadata\./);
  });

  it('answers AlreadyExists and a missing namespace like kube', async () => {
    await t.call('POST', `${NS}/configmaps`, cm('dup'));
    const again = await t.call('POST', `${NS}/configmaps`, cm('dup'));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ reason: 'AlreadyExists', message: 'configmaps "dup" already exists' });
    const nons = await t.call('POST', '/api/v1/namespaces/nope/configmaps', cm('x'));
    expect(nons.body).toMatchObject({ code: 404, message: 'namespaces "nope" not found' });
  });
});

describe('create: schema and namespace state', () => {
  const SPROCKETS = '/apis/schema.example.org/v1/namespaces/default/sprockets';
  const sprocketCRD = {
    ...widgetCRD, metadata: { name: 'sprockets.schema.example.org' },
    spec: {
      group: 'schema.example.org', scope: 'Namespaced', names: { plural: 'sprockets', singular: 'sprocket', kind: 'Sprocket' },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', default: 3 } } } } } },
      }],
    },
  };

  it('prunes unknown fields (with a warning) and applies defaults to what it stores and answers', async () => {
    expect((await t.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', sprocketCRD)).status).toBe(201);
    const sprocket = { apiVersion: 'schema.example.org/v1', kind: 'Sprocket', metadata: { name: 's1' }, spec: { bogus: 1 } };
    let r = await t.call('POST', SPROCKETS, sprocket);
    for (let i = 0; r.status === 404 && i < 50; i++) { // the CRD is served a moment after it is stored
      await new Promise((resolve) => setTimeout(resolve, 100));
      r = await t.call('POST', SPROCKETS, sprocket);
    }
    expect(r.status).toBe(201);
    expect(r.body.spec).toEqual({ size: 3 });
    expect(String(r.headers.warning)).toContain('unknown field \\"spec.bogus\\"');
    expect((await t.call('GET', `${SPROCKETS}/s1`)).body).toEqual(r.body); // the answer is what was stored
  });

  it('refuses creates in a namespace once it is terminating', async () => {
    const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'closing', finalizers: ['example.com/hold'] } };
    expect((await t.call('POST', '/api/v1/namespaces', ns)).status).toBe(201);
    expect((await t.call('POST', '/api/v1/namespaces/closing/configmaps', cm('before'))).status).toBe(201);
    expect((await t.call('DELETE', '/api/v1/namespaces/closing')).status).toBe(200);
    const r = await t.call('POST', '/api/v1/namespaces/closing/configmaps', cm('after'));
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('configmaps "after" is forbidden: unable to create new content in namespace closing because it is being terminated');
  });
});

describe('update', () => {
  it('rejects a stale resourceVersion with Conflict and accepts the current one', async () => {
    const created = (await t.call('POST', `${NS}/configmaps`, cm('cas'))).body;
    const ok = await t.call('PUT', `${NS}/configmaps/cas`, { ...created, data: { a: '2' } });
    expect(ok.status).toBe(200);
    expect(Number(ok.body.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    const stale = await t.call('PUT', `${NS}/configmaps/cas`, { ...created, data: { a: '3' } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('Operation cannot be fulfilled on configmaps "cas": the object has been modified; please apply your changes to the latest version and try again');
  });

  it('bumps generation on spec changes only and keeps spec and status writes apart', async () => {
    const w = (await t.call('POST', WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 1 }, status: { ready: true } })).body;
    expect(w.metadata.generation).toBe(1);
    expect(w.status).toBeUndefined();
    const labelled = (await t.call('PATCH', `${WIDGETS}/w1`, { metadata: { labels: { a: 'b' } } }, { contentType: 'application/merge-patch+json' })).body;
    expect(labelled.metadata.generation).toBe(1);
    const spec = (await t.call('PATCH', `${WIDGETS}/w1`, { spec: { size: 2 }, status: { ready: true } }, { contentType: 'application/merge-patch+json' })).body;
    expect(spec.metadata.generation).toBe(2);
    expect(spec.status).toBeUndefined();
    const status = (await t.call('PUT', `${WIDGETS}/w1/status`, { ...spec, spec: { size: 99 }, status: { ready: true } })).body;
    expect(status).toMatchObject({ spec: { size: 2 }, status: { ready: true }, metadata: { generation: 2 } });
  });

  it('serves the CRD: Established, in discovery, Table with printer columns', async () => {
    const crd = (await t.call('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com')).body;
    expect(crd.status.conditions.find((c: { type: string; status: string }) => c.type === 'Established').status).toBe('True');
    const disc = (await t.call('GET', '/apis/example.com/v1')).body;
    expect(disc.resources.map((r: { name: string }) => r.name)).toEqual(['widgets', 'widgets/status']);
    const table = (await t.call('GET', WIDGETS, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })).body;
    expect(table.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Size']);
    expect(table.rows[0].cells).toEqual(['w1', 2]);
  });
});

describe('CRD deletion', () => {
  it('deletes the custom resources, then the CRD and its served type', async () => {
    const crd = structuredClone(widgetCRD);
    crd.metadata.name = 'gadgets.example.com';
    Object.assign(crd.spec.names, { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', shortNames: [] });
    expect((await t.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
    const gadgets = '/apis/example.com/v1/namespaces/default/gadgets';
    expect((await t.call('POST', gadgets, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g1' } })).status).toBe(201);
    await t.call('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.com');
    await waitFor(async () => (await t.call('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.com')).status === 404, 5000, 'crd gone');
    expect((await t.call('GET', gadgets)).status).toBe(404);
    expect(t.srv.ctx.store.count('/registry/example.com/gadgets/')).toBe(0);
  });
});

describe('patch', () => {
  it.each([
    ['merge', 'application/merge-patch+json', { data: { b: '2' } }, 200, { a: '1', b: '2' }],
    ['json', 'application/json-patch+json', [{ op: 'replace', path: '/data/a', value: '9' }], 200, { a: '9' }],
    ['strategic', 'application/strategic-merge-patch+json', { data: { c: '3' } }, 200, { a: '1', c: '3' }],
    ['json test fails', 'application/json-patch+json', [{ op: 'test', path: '/data/a', value: 'x' }], 422, undefined],
    ['unknown type', 'text/plain', 'x', 415, undefined],
  ])('%s', async (name, type, body, status, data) => {
    await t.call('POST', `${NS}/configmaps`, cm(`p-${name.replace(/ /g, '-')}`));
    const r = await t.call('PATCH', `${NS}/configmaps/p-${name.replace(/ /g, '-')}`, body, { contentType: type });
    expect(r.status).toBe(status);
    if (data) expect(r.body.data).toEqual(data);
  });

  it('apply-patch creates, then updates', async () => {
    const opts = { contentType: 'application/apply-patch+yaml' };
    const first = await t.call('PATCH', `${NS}/configmaps/applied?fieldManager=test`, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  k: v\n', opts);
    expect(first.status).toBe(201);
    const second = await t.call('PATCH', `${NS}/configmaps/applied?fieldManager=test`, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  k: w\n', opts);
    expect(second).toMatchObject({ status: 200, body: { data: { k: 'w' } } });
  });

  it('apply-patch of a configuration that is not an object is a 400, whether the object exists or not', async () => {
    const opts = { contentType: 'application/apply-patch+yaml' };
    for (const name of ['applied', 'never-created']) {
      const r = await t.call('PATCH', `${NS}/configmaps/${name}?fieldManager=test`, 'null', opts);
      expect(r).toMatchObject({ status: 400, body: { message: 'error decoding YAML: the applied configuration is not an object' } });
    }
    const nullMeta = await t.call('PATCH', `${NS}/configmaps/applied?fieldManager=test`, 'apiVersion: v1\nkind: ConfigMap\nmetadata: null\ndata:\n  k: x\n', opts);
    expect(nullMeta).toMatchObject({ status: 200, body: { metadata: { name: 'applied' }, data: { k: 'x' } } });
  });
});

describe('delete', () => {
  it('keeps an object with finalizers until they are removed', async () => {
    await t.call('POST', `${NS}/configmaps`, cm('fin', { finalizers: ['example.com/hold'] }));
    const del = await t.call('DELETE', `${NS}/configmaps/fin`);
    expect(del.body.metadata.deletionTimestamp).toBeTruthy();
    expect((await t.call('GET', `${NS}/configmaps/fin`)).status).toBe(200);
    await t.call('PATCH', `${NS}/configmaps/fin`, { metadata: { finalizers: null } }, { contentType: 'application/merge-patch+json' });
    expect((await t.call('GET', `${NS}/configmaps/fin`)).status).toBe(404);
  });

  it('removing the last finalizer deletes in the same step: no watcher ever sees it deleting and unfinalized', async () => {
    await t.call('POST', `${NS}/configmaps`, cm('fin-atomic', { finalizers: ['example.com/hold'] }));
    const w = await t.watch(`${NS}/configmaps?watch=true&fieldSelector=metadata.name%3Dfin-atomic`);
    await t.call('DELETE', `${NS}/configmaps/fin-atomic`);
    const emptied = await t.call('PATCH', `${NS}/configmaps/fin-atomic`, { metadata: { finalizers: null } }, { contentType: 'application/merge-patch+json' });
    expect(emptied.status).toBe(200);
    expect((await t.call('GET', `${NS}/configmaps/fin-atomic`)).status).toBe(404);
    await waitFor(() => w.events.some((e) => e.type === 'DELETED'));
    w.stop();
    const seen = w.events.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} ${e.object.metadata.deletionTimestamp ? 'deleting' : 'live'} [${((e.object.metadata.finalizers as string[] | undefined) ?? []).join()}]`);
    expect(seen).toEqual(['ADDED live [example.com/hold]', 'MODIFIED deleting [example.com/hold]', 'DELETED deleting [example.com/hold]']);
  });

  it('deletes a bound pod gracefully and an unbound one at once', async () => {
    const pod = (name: string, nodeName?: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { nodeName, containers: [{ name: 'c', image: 'x' }] } });
    await t.call('POST', `${NS}/pods`, pod('bound', 'node1'));
    await t.call('POST', `${NS}/pods`, pod('unbound'));
    expect((await t.call('DELETE', `${NS}/pods/unbound`)).status).toBe(200);
    expect((await t.call('GET', `${NS}/pods/unbound`)).status).toBe(404);
    const graceful = (await t.call('DELETE', `${NS}/pods/bound`)).body;
    expect(graceful.metadata.deletionGracePeriodSeconds).toBe(30);
    expect((await t.call('GET', `${NS}/pods/bound`)).status).toBe(200);
    await t.call('DELETE', `${NS}/pods/bound`, { gracePeriodSeconds: 0 });
    expect((await t.call('GET', `${NS}/pods/bound`)).status).toBe(404);
  });

  it('binds a pod once and evicts it', async () => {
    await t.call('POST', `${NS}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'sched' }, spec: { containers: [{ name: 'c', image: 'x' }] } });
    const bind = (node: string) => t.call('POST', `${NS}/pods/sched/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'sched' }, target: { apiVersion: 'v1', kind: 'Node', name: node } });
    expect((await bind('n1')).status).toBe(201);
    expect((await t.call('GET', `${NS}/pods/sched`)).body.spec.nodeName).toBe('n1');
    expect(await bind('n2')).toMatchObject({ status: 409, body: { reason: 'Conflict' } });
    const status = await t.call('PATCH', `${NS}/pods/sched/status`, { status: { phase: 'Running' }, spec: { nodeName: 'elsewhere' } }, { contentType: 'application/merge-patch+json' });
    expect(status.body).toMatchObject({ status: { phase: 'Running' }, spec: { nodeName: 'n1' } });
    expect((await t.call('POST', `${NS}/pods/sched/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'sched' }, deleteOptions: { gracePeriodSeconds: 0 } })).status).toBe(201);
    expect((await t.call('GET', `${NS}/pods/sched`)).status).toBe(404);
  });

  it.each([
    ['Background', 'gone'],
    ['Foreground', 'gone'],
    ['Orphan', 'orphaned'],
  ])('garbage-collects dependents with propagationPolicy=%s', async (policy, outcome) => {
    const owner = (await t.call('POST', `${NS}/configmaps`, cm(`owner-${policy.toLowerCase()}`))).body;
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: owner.metadata.name, uid: owner.metadata.uid, blockOwnerDeletion: true };
    await t.call('POST', `${NS}/configmaps`, cm(`dep-${policy.toLowerCase()}`, { ownerReferences: [ref] }));
    await t.call('DELETE', `${NS}/configmaps/${owner.metadata.name}`, { propagationPolicy: policy });
    await waitFor(async () => (await t.call('GET', `${NS}/configmaps/${owner.metadata.name}`)).status === 404, 5000, 'owner gone');
    const dep = await waitFor(async () => {
      const r = await t.call('GET', `${NS}/configmaps/dep-${policy.toLowerCase()}`);
      if (outcome === 'gone') return r.status === 404 && r;
      return r.status === 200 && !r.body.metadata.ownerReferences?.length && r;
    }, 5000, `dependent ${outcome}`);
    expect(dep).toBeTruthy();
  });

  it('deletes a namespace after its content', async () => {
    await t.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'doomed' } });
    await t.call('POST', '/api/v1/namespaces/doomed/configmaps', cm('inside'));
    await t.call('POST', '/api/v1/namespaces/doomed/configmaps', cm('held', { finalizers: ['example.com/hold'] }));
    const del = (await t.call('DELETE', '/api/v1/namespaces/doomed')).body;
    expect(del.status.phase).toBe('Terminating');
    expect((await t.call('POST', '/api/v1/namespaces/doomed/configmaps', cm('late'))).status).toBe(403);
    await waitFor(async () => (await t.call('GET', '/api/v1/namespaces/doomed/configmaps/inside')).status === 404, 5000, 'content deleted');
    expect((await t.call('GET', '/api/v1/namespaces/doomed')).body.status.phase).toBe('Terminating');
    await t.call('PATCH', '/api/v1/namespaces/doomed/configmaps/held', { metadata: { finalizers: null } }, { contentType: 'application/merge-patch+json' });
    await waitFor(async () => (await t.call('GET', '/api/v1/namespaces/doomed')).status === 404, 5000, 'namespace gone');
    expect((await t.call('GET', '/api/v1/namespaces/doomed/configmaps/inside')).status).toBe(404);
  });
});

describe('list', () => {
  beforeAll(async () => {
    await t.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sel' } });
    for (let i = 0; i < 5; i++) {
      await t.call('POST', '/api/v1/namespaces/sel/pods', {
        apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}`, labels: { app: i % 2 ? 'odd' : 'even', tier: `t${i}` } },
        spec: { nodeName: i < 2 ? 'n1' : 'n2', containers: [{ name: 'c', image: 'x' }] },
      });
    }
  });

  it.each([
    ['labelSelector=app%3Dodd', ['p1', 'p3']],
    ['labelSelector=app%20in%20(even),tier!%3Dt0', ['p2', 'p4']],
    ['fieldSelector=spec.nodeName%3Dn1', ['p0', 'p1']],
    ['fieldSelector=status.phase%3DPending,metadata.name%3Dp4', ['p4']],
    ['fieldSelector=status.phase%3DRunning', []],
  ])('%s', async (query, names) => {
    const r = await t.call('GET', `/api/v1/namespaces/sel/pods?${query}`);
    expect(r.body.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual(names);
  });

  it('rejects an unsupported field label', async () => {
    const r = await t.call('GET', '/api/v1/namespaces/sel/pods?fieldSelector=spec.foo%3Dx');
    expect(r).toMatchObject({ status: 400, body: { message: 'field label not supported: spec.foo' } });
  });

  it('pages with limit/continue at one resourceVersion', async () => {
    const names: string[] = [];
    let cont = '';
    const rvs = new Set<string>();
    do {
      const r = (await t.call('GET', `/api/v1/namespaces/sel/pods?limit=2${cont ? `&continue=${cont}` : ''}`)).body;
      names.push(...r.items.map((p: { metadata: { name: string } }) => p.metadata.name));
      rvs.add(r.metadata.resourceVersion);
      cont = r.metadata.continue ?? '';
    } while (cont);
    expect(names).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
    expect(rvs.size).toBe(1);
  });

  it('renders pods as a Table with kubectl columns', async () => {
    const table = (await t.call('GET', '/api/v1/namespaces/sel/pods?limit=1', undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })).body;
    expect(table.columnDefinitions.filter((c: { priority: number }) => c.priority === 0).map((c: { name: string }) => c.name)).toEqual(['Name', 'Ready', 'Status', 'Restarts', 'Age']);
    expect(table.rows[0].cells.slice(0, 4)).toEqual(['p0', '0/1', 'Pending', '0']);
  });
});

describe('watch', () => {
  it('replays from a resourceVersion, then streams live, with bookmarks', async () => {
    const first = (await t.call('POST', `${NS}/configmaps`, cm('w-1'))).body;
    await t.call('POST', `${NS}/configmaps`, cm('w-2'));
    const w = await t.watch(`${NS}/configmaps?watch=true&allowWatchBookmarks=true&resourceVersion=${first.metadata.resourceVersion}`);
    await t.call('DELETE', `${NS}/configmaps/w-2`);
    await waitFor(() => w.events.some((e) => e.type === 'BOOKMARK') && w.events.some((e) => e.type === 'DELETED'), 3000, 'events');
    const seen = w.events.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} ${e.object.metadata.name}`);
    expect(seen).toEqual(['ADDED w-2', 'DELETED w-2']);
    w.stop();
  });

  it('turns label transitions into ADDED/DELETED for a selector', async () => {
    const w = await t.watch(`${NS}/configmaps?watch=true&labelSelector=watched%3Dyes`);
    await t.call('POST', `${NS}/configmaps`, cm('sel-w'));
    await t.call('PATCH', `${NS}/configmaps/sel-w`, { metadata: { labels: { watched: 'yes' } } }, { contentType: 'application/merge-patch+json' });
    await t.call('PATCH', `${NS}/configmaps/sel-w`, { metadata: { labels: { watched: 'no' } } }, { contentType: 'application/merge-patch+json' });
    await waitFor(() => w.events.length >= 2, 3000, 'selector events');
    expect(w.events.map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
    w.stop();
  });

  it('watchers with different selectors each see the same change as their own transition', async () => {
    const patch = (labels: Record<string, string>) => t.call('PATCH', `${NS}/configmaps/sel-two`, { metadata: { labels } }, { contentType: 'application/merge-patch+json' });
    const red = await t.watch(`${NS}/configmaps?watch=true&labelSelector=colour%3Dred`);
    const blue = await t.watch(`${NS}/configmaps?watch=true&labelSelector=colour%3Dblue`);
    const plain = await t.watch(`${NS}/configmaps?watch=true&fieldSelector=metadata.name%3Dsel-two`);
    await t.call('POST', `${NS}/configmaps`, cm('sel-two', { labels: { colour: 'red' } }));
    await patch({ colour: 'blue' });
    await patch({ colour: 'blue', size: 'l' });
    await waitFor(() => red.events.length >= 2 && blue.events.length >= 2 && plain.events.length >= 3, 3000, 'selector events');
    expect(red.events.map((e) => [e.type, (e.object.metadata.labels as Record<string, string>).colour])).toEqual([['ADDED', 'red'], ['DELETED', 'blue']]);
    expect(blue.events.map((e) => [e.type, (e.object.metadata.labels as Record<string, string>).size])).toEqual([['ADDED', undefined], ['MODIFIED', 'l']]);
    expect(plain.events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'MODIFIED']);
    expect(blue.events[1].object.metadata.resourceVersion).toBe(plain.events[2].object.metadata.resourceVersion);
    [red, blue, plain].forEach((w) => w.stop());
  });

  it('answers a compacted resourceVersion with an Expired ERROR event', async () => {
    const a = (await t.call('POST', `${NS}/configmaps`, cm('old-1'))).body;
    await t.call('POST', `${NS}/configmaps`, cm('old-2'));
    t.srv.ctx.store.compact(t.srv.ctx.store.currentRevision());
    const w = await t.watch(`${NS}/configmaps?watch=true&resourceVersion=${a.metadata.resourceVersion}`);
    await waitFor(() => w.ended(), 3000, 'watch closed');
    expect(w.events).toEqual([{ type: 'ERROR', object: expect.objectContaining({ kind: 'Status', code: 410, reason: 'Expired' }) }]);
  });

  it('ends after timeoutSeconds', async () => {
    const w = await t.watch(`${NS}/configmaps?watch=true&timeoutSeconds=1&resourceVersion=${t.srv.ctx.store.currentRevision()}`);
    await waitFor(() => w.ended(), 3000, 'timeout');
  });
});

describe('nodes', () => {
  it('marks a node whose lease is not renewed Ready=Unknown', async () => {
    const old = new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z/, 'Z');
    await t.call('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: old }] } });
    await t.call('POST', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'n1' }, spec: { holderIdentity: 'n1', renewTime: new Date(Date.now() - 60_000).toISOString() } });
    const node = await waitFor(async () => {
      const n = (await t.call('GET', '/api/v1/nodes/n1')).body;
      return n.status.conditions[0].status === 'Unknown' && n;
    }, 5000, 'node unknown');
    expect(node.status.conditions[0].reason).toBe('NodeStatusUnknown');
  });
});
