/**
 * ResourceQuota against a real API server (SQLite store, group commit): kube's admission answers,
 * concurrent creates that race for the last room, the quota controller's status, kubectl's table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlWithToken } from '../../e2e/support/kubectl';
import { startTestServer, type TestServer } from './testing/test-server';

let t: TestServer;
beforeAll(async () => { t = await startTestServer({ memory: false }); });
afterAll(async () => { await t?.close(); });

const ns = async (name: string) => expect((await t.call('POST', '/api/v1/namespaces', { metadata: { name } })).status).toBe(201);
const quota = (name: string, hard: Record<string, string>, extra: object = {}) => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name }, spec: { hard, ...extra } });
const pod = (name: string, resources: object = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'kubevirt-ts:latest', resources }] } });
const mem = (m: string) => ({ requests: { memory: m }, limits: { memory: m } });

async function statusOf(namespace: string, name: string, want: (s: { hard?: Record<string, string>; used?: Record<string, string> }) => boolean) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await t.call('GET', `/api/v1/namespaces/${namespace}/resourcequotas/${name}`);
    if (want(r.body.status ?? {})) return r.body.status;
    if (Date.now() > deadline) throw new Error(`quota status never matched: ${JSON.stringify(r.body.status)}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

describe('ResourceQuota on Pods', () => {
  beforeAll(async () => {
    await ns('rq-mem');
    const r = await t.call('POST', '/api/v1/namespaces/rq-mem/resourcequotas', quota('mem', { memory: '500Mi', 'limits.memory': '500Mi', pods: '3' }));
    expect(r.status).toBe(201);
    expect(r.body.status).toEqual({});
  });

  it('the controller fills status.hard and status.used', async () => {
    const s = await statusOf('rq-mem', 'mem', (st) => st.used !== undefined);
    expect(s).toEqual({ hard: { memory: '500Mi', 'limits.memory': '500Mi', pods: '3' }, used: { memory: '0', 'limits.memory': '0', pods: '0' } });
  });

  it('a Pod that fits is created and counted; one that does not is refused with kube\'s message', async () => {
    expect((await t.call('POST', '/api/v1/namespaces/rq-mem/pods', pod('first', mem('300Mi')))).status).toBe(201);
    await statusOf('rq-mem', 'mem', (st) => st.used?.memory === '300Mi' && st.used.pods === '1');
    const r = await t.call('POST', '/api/v1/namespaces/rq-mem/pods', pod('second', mem('300Mi')));
    expect(r.status).toBe(403);
    expect(r.body.reason).toBe('Forbidden');
    expect(r.body.message).toBe('pods "second" is forbidden: exceeded quota: mem, requested: limits.memory=300Mi,memory=300Mi, used: limits.memory=300Mi,memory=300Mi, limited: limits.memory=500Mi,memory=500Mi');
    expect(r.body.details).toMatchObject({ name: 'second', kind: 'pods' });
  });

  it('a Pod that does not state the memory a quota limits is refused', async () => {
    const r = await t.call('POST', '/api/v1/namespaces/rq-mem/pods', pod('bare'));
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('pods "bare" is forbidden: failed quota: mem: must specify limits.memory for: c; memory for: c');
  });

  it('a Succeeded Pod no longer counts: the refused Pod now fits', async () => {
    const cur = await t.call('GET', '/api/v1/namespaces/rq-mem/pods/first');
    const upd = await t.call('PUT', '/api/v1/namespaces/rq-mem/pods/first/status', { ...cur.body, status: { ...cur.body.status, phase: 'Succeeded' } });
    expect(upd.status).toBe(200);
    await statusOf('rq-mem', 'mem', (st) => st.used?.memory === '0' && st.used.pods === '0');
    expect((await t.call('POST', '/api/v1/namespaces/rq-mem/pods', pod('second', mem('300Mi')))).status).toBe(201);
  });

  it('raising spec.hard is mirrored into status.hard', async () => {
    const r = await t.call('PATCH', '/api/v1/namespaces/rq-mem/resourcequotas/mem', { spec: { hard: { memory: '1Gi' } } }, { contentType: 'application/merge-patch+json' });
    expect(r.status).toBe(200);
    await statusOf('rq-mem', 'mem', (st) => st.hard?.memory === '1Gi');
  });

  it('a dry-run create is checked but reserves nothing', async () => {
    await ns('rq-dry');
    await t.call('POST', '/api/v1/namespaces/rq-dry/resourcequotas', quota('one', { pods: '1' }));
    expect((await t.call('POST', '/api/v1/namespaces/rq-dry/pods?dryRun=All', pod('a'))).status).toBe(201);
    expect((await t.call('POST', '/api/v1/namespaces/rq-dry/pods', pod('b'))).status).toBe(201);
    expect((await t.call('POST', '/api/v1/namespaces/rq-dry/pods?dryRun=All', pod('c'))).status).toBe(403);
  });
});

describe('concurrent creates cannot both take the last room', () => {
  it('20 concurrent Pod creates against pods=5: exactly 5 are created', async () => {
    await ns('rq-race');
    await t.call('POST', '/api/v1/namespaces/rq-race/resourcequotas', quota('five', { pods: '5' }));
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => t.call('POST', '/api/v1/namespaces/rq-race/pods', pod(`p${i}`))));
    const codes = results.map((r) => r.status).sort();
    expect(codes.filter((c) => c === 201)).toHaveLength(5);
    expect(codes.filter((c) => c === 403)).toHaveLength(15);
    const list = await t.call('GET', '/api/v1/namespaces/rq-race/pods');
    expect(list.body.items).toHaveLength(5);
    await statusOf('rq-race', 'five', (st) => st.used?.pods === '5');
  });

  it('count/configmaps: 10 concurrent creates against 3 more than the namespace\'s kube-root-ca.crt', async () => {
    await ns('rq-cm');
    for (let i = 0; (await t.call('GET', '/api/v1/namespaces/rq-cm/configmaps/kube-root-ca.crt')).status !== 200; i++) {
      if (i > 100) throw new Error('kube-root-ca.crt never published');
      await new Promise((res) => setTimeout(res, 50));
    }
    await t.call('POST', '/api/v1/namespaces/rq-cm/resourcequotas', quota('cms', { 'count/configmaps': '4' }));
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => t.call('POST', '/api/v1/namespaces/rq-cm/configmaps', { metadata: { name: `cm${i}` } })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.find((r) => r.status === 403)?.body.message).toMatch(/^configmaps "cm\d" is forbidden: exceeded quota: cms, requested: count\/configmaps=1, used: count\/configmaps=4, limited: count\/configmaps=4$/);
  });
});

describe('ResourceQuota on PersistentVolumeClaims', () => {
  it('requests.storage and per-class storage: the claim that does not fit is refused, the status counts the rest', async () => {
    await ns('rq-pvc');
    await t.call('POST', '/api/v1/namespaces/rq-pvc/resourcequotas', quota('storage', { 'requests.storage': '2Gi', 'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '1' }));
    const claim = (name: string, size: string, storageClassName?: string) => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } }, ...(storageClassName ? { storageClassName } : {}) } });
    expect((await t.call('POST', '/api/v1/namespaces/rq-pvc/persistentvolumeclaims', claim('c1', '1Gi', 'gold'))).status).toBe(201);
    const big = await t.call('POST', '/api/v1/namespaces/rq-pvc/persistentvolumeclaims', claim('c2', '2Gi'));
    expect(big.status).toBe(403);
    expect(big.body.message).toBe('persistentvolumeclaims "c2" is forbidden: exceeded quota: storage, requested: requests.storage=2Gi, used: requests.storage=1Gi, limited: requests.storage=2Gi');
    const gold = await t.call('POST', '/api/v1/namespaces/rq-pvc/persistentvolumeclaims', claim('c3', '1Mi', 'gold'));
    expect(gold.status).toBe(403);
    expect(gold.body.message).toContain('exceeded quota: storage, requested: gold.storageclass.storage.k8s.io/persistentvolumeclaims=1');
    await statusOf('rq-pvc', 'storage', (st) => st.used?.['requests.storage'] === '1Gi' && st.used['gold.storageclass.storage.k8s.io/persistentvolumeclaims'] === '1');
  });
});

describe('ResourceQuota objects', () => {
  it('bad quotas are refused with kube\'s validation (422) or decode error (400)', async () => {
    await ns('rq-bad');
    const neg = await t.call('POST', '/api/v1/namespaces/rq-bad/resourcequotas', quota('neg', { memory: '-1Gi' }));
    expect(neg.status).toBe(422);
    expect(neg.body.message).toBe('ResourceQuota "neg" is invalid: spec.hard[memory]: Invalid value: "-1Gi": must be greater than or equal to 0');
    const scope = await t.call('POST', '/api/v1/namespaces/rq-bad/resourcequotas', quota('prio', { pods: '1' }, { scopes: ['PriorityClass'] }));
    expect(scope.status).toBe(422);
    expect(scope.body.message).toContain('spec.scopes[0]: Unsupported value: "PriorityClass"');
    const bad = await t.call('POST', '/api/v1/namespaces/rq-bad/resourcequotas', quota('bad', { memory: 'lots' }));
    expect(bad.status).toBe(400);
  });

  it('is in discovery with short name quota, and its table has kubectl\'s REQUEST and LIMIT columns', async () => {
    const disc = await t.call('GET', '/api/v1');
    expect(disc.body.resources.find((r: { name: string }) => r.name === 'resourcequotas')).toMatchObject({ kind: 'ResourceQuota', namespaced: true, shortNames: ['quota'] });
    const table = await t.call('GET', '/api/v1/namespaces/rq-mem/resourcequotas', undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Age', 'Request', 'Limit']);
    const [row] = table.body.rows;
    expect(row.cells[0]).toBe('mem');
    expect(row.cells[2]).toBe('memory: 300Mi/1Gi, pods: 1/3');
    expect(row.cells[3]).toBe('limits.memory: 300Mi/500Mi');
  });
});

describe('kubectl', () => {
  it('kubectl create quota and kubectl get quota print kube\'s columns; an over-quota create prints kube\'s error', async () => {
    const k = kubectlWithToken(t.srv, t.srv.adminToken);
    await ns('rq-kubectl');
    const created = await k.run('create', 'quota', 'compute', '-n', 'rq-kubectl', '--hard=requests.cpu=1,limits.cpu=2,pods=1');
    expect(created.err).toBe('');
    expect(created.out.trim()).toBe('resourcequota/compute created');
    await statusOf('rq-kubectl', 'compute', (st) => st.used !== undefined);
    const got = await k.run('get', 'quota', '-n', 'rq-kubectl');
    expect(got.out.split('\n')[0].split(/\s{2,}/)).toEqual(['NAME', 'AGE', 'REQUEST', 'LIMIT']);
    expect(got.out).toContain('pods: 0/1, requests.cpu: 0/1');
    expect(got.out).toContain('limits.cpu: 0/2');
    const run = await k.run('run', 'big', '-n', 'rq-kubectl', '--image=kubevirt-ts:latest', '--overrides={"spec":{"containers":[{"name":"big","image":"kubevirt-ts:latest","resources":{"requests":{"cpu":"2"},"limits":{"cpu":"2"}}}]}}');
    expect(run.err.trim()).toBe('Error from server (Forbidden): pods "big" is forbidden: exceeded quota: compute, requested: requests.cpu=2, used: requests.cpu=0, limited: requests.cpu=1');
    const applied = await k.run('apply', '-n', 'rq-kubectl', '-f', k.file('quota.yaml', 'apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: objects}\nspec:\n  hard: {count/configmaps: "5", pods: "4"}\n'));
    expect(applied.err).toBe('');
    expect(applied.out.trim()).toBe('resourcequota/objects created');
    await statusOf('rq-kubectl', 'objects', (st) => st.used?.['count/configmaps'] === '1');
    const described = await k.run('describe', 'quota', 'objects', '-n', 'rq-kubectl');
    expect(described.err).toBe('');
    expect(described.out).toMatch(/count\/configmaps\s+1\s+5/);
    expect(described.out).toMatch(/pods\s+0\s+4/);
  });
});
