import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeKubeconfig } from './kubeconfig';
import { startTestServer, type TestServer } from './testing/test-server';
import { makeKubectl, type Kubectl } from '../../e2e/support/kubectl';

/** A create in a terminating namespace, as the real kubectl shows it (kube's NamespaceLifecycle admission). */
let t: TestServer;
let home: string;
let k: Kubectl;

beforeAll(async () => {
  t = await startTestServer();
  home = mkdtempSync(join(tmpdir(), 'kv-nsterm-home-'));
  const kubeconfig = join(home, 'kubeconfig');
  writeKubeconfig(kubeconfig, { server: t.srv.url, caPem: t.srv.caPem, token: t.srv.adminToken });
  k = makeKubectl(kubeconfig, '20s');
  // a finalizer nobody removes keeps the namespace terminating
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'closing', finalizers: ['example.com/hold'] } };
  expect((await t.call('POST', '/api/v1/namespaces', ns)).status).toBe(201);
  expect((await t.call('DELETE', '/api/v1/namespaces/closing')).status).toBe(200);
});
afterAll(async () => {
  k?.dispose();
  await t?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('creates in a terminating namespace', () => {
  it('kubectl prints kube\'s Forbidden naming the object, its resource group-qualified', async () => {
    const cm = await k.run('create', 'configmap', 'late', '-n', 'closing', '--from-literal=a=b');
    expect(cm.code).not.toBe(0);
    expect(cm.err.trim()).toBe('error: failed to create configmap: configmaps "late" is forbidden: unable to create new content in namespace closing because it is being terminated');
    const deploy = await k.run('create', 'deployment', 'web', '-n', 'closing', '--image=busybox:1.36');
    expect(deploy.code).not.toBe(0);
    expect(deploy.err).toContain('deployments.apps "web" is forbidden: unable to create new content in namespace closing because it is being terminated');
  });

  it('answers 403 Forbidden whose details name the object (generateName before a name is made) with a NamespaceTerminating cause', async () => {
    const r = await t.call('POST', '/api/v1/namespaces/closing/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'job-' } });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({
      kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403,
      message: 'configmaps "job-" is forbidden: unable to create new content in namespace closing because it is being terminated',
      details: {
        name: 'job-', kind: 'configmaps',
        causes: [{ reason: 'NamespaceTerminating', message: 'namespace closing is being terminated', field: 'metadata.namespace' }],
      },
    });
    expect(r.body.details.group).toBeUndefined();
  });
});
