import * as k8s from '@kubernetes/client-node';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, waitFor, type TestServer } from './testing/test-server';

function kubeConfigFor(t: TestServer): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'kv', server: t.srv.url, caData: Buffer.from(t.srv.caPem).toString('base64') }],
    users: [{ name: 'admin', token: t.srv.adminToken }],
    contexts: [{ name: 'kv', cluster: 'kv', user: 'admin' }],
    currentContext: 'kv',
  });
  return kc;
}

/** an informer that restarts itself after errors, as every component wraps ListWatch */
function startInformer(kc: k8s.KubeConfig, seen: Map<string, string>, log: string[]) {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const inf = k8s.makeInformer(kc, '/api/v1/namespaces/default/configmaps', () => core.listNamespacedConfigMap({ namespace: 'default' }));
  const record = (type: string) => (cm: k8s.V1ConfigMap) => {
    if (cm.metadata!.name === 'kube-root-ca.crt') return; // the root-ca-cert-publisher's, in every namespace as on a real cluster
    log.push(`${type} ${cm.metadata!.name}`);
    if (type === 'delete') seen.delete(cm.metadata!.name!); else seen.set(cm.metadata!.name!, cm.data?.v ?? '');
  };
  inf.on('add', record('add'));
  inf.on('update', record('update'));
  inf.on('delete', record('delete'));
  let stopped = false;
  inf.on('error', () => { if (!stopped) setTimeout(() => { if (!stopped) void inf.start().catch(() => undefined); }, 100); });
  void inf.start();
  return { stop: () => { stopped = true; void inf.stop(); } };
}

describe('@kubernetes/client-node against the embedded API server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kv-informer-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('informer lists, watches every change and survives a restart on the same data dir', async () => {
    let t = await startTestServer({ dataDir, memory: false, crdDir: '/nonexistent' });
    const port = t.srv.port;
    const kc = kubeConfigFor(t);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const cm = (name: string, v: string) => ({ metadata: { name }, data: { v } });
    await core.createNamespacedConfigMap({ namespace: 'default', body: cm('before', '1') });
    const seen = new Map<string, string>();
    const log: string[] = [];
    const inf = startInformer(kc, seen, log);
    try {
      await waitFor(() => seen.get('before') === '1', 5000, 'initial list');
      await core.createNamespacedConfigMap({ namespace: 'default', body: cm('live', '1') });
      await core.patchNamespacedConfigMap({ namespace: 'default', name: 'live', body: { data: { v: '2' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
      await core.deleteNamespacedConfigMap({ namespace: 'default', name: 'before' });
      await waitFor(() => seen.get('live') === '2' && !seen.has('before'), 5000, 'live events');

      await t.close();
      t = await startTestServer({ dataDir, memory: false, crdDir: '/nonexistent', port });
      await core.createNamespacedConfigMap({ namespace: 'default', body: cm('after', '1') });
      await core.replaceNamespacedConfigMap({ namespace: 'default', name: 'live', body: cm('live', '3') });
      await waitFor(() => seen.get('after') === '1' && seen.get('live') === '3', 10_000, 'events after restart');
      expect([...seen.keys()].sort()).toEqual(['after', 'live']);
      expect(log.slice(0, 4)).toEqual(['add before', 'add live', 'update live', 'delete before']);
    } finally {
      inf.stop();
      await t.close();
    }
  }, 30_000);
});
