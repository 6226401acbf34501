import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadKubeConfig, makeKubeConfig } from './kubeconfig';

const config = (server: string) => `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "${server}" } }]
users: [{ name: u, user: { token: t } }]
contexts: [{ name: x, context: { cluster: c, user: u } }]
current-context: x
`;

describe('loadKubeConfig', () => {
  let dir: string;
  const saved = process.env.KUBECONFIG;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kv-kc-'));
    writeFileSync(join(dir, 'explicit'), config('https://explicit:6443'));
    writeFileSync(join(dir, 'env'), config('http://127.0.0.1:8080'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    if (saved === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = saved;
  });

  it('prefers an explicit path over $KUBECONFIG', () => {
    process.env.KUBECONFIG = join(dir, 'env');
    expect(loadKubeConfig(join(dir, 'explicit')).getCurrentCluster()?.server).toBe('https://explicit:6443');
  });

  it('uses the first file in $KUBECONFIG and allows a plain-http server', () => {
    process.env.KUBECONFIG = `${join(dir, 'env')}:${join(dir, 'explicit')}`;
    const kc = loadKubeConfig();
    expect(kc.getCurrentCluster()).toMatchObject({ server: 'http://127.0.0.1:8080', skipTLSVerify: true });
    expect(kc.getCurrentUser()?.token).toBe('t');
  });

  it('keeps TLS verification on for https servers', () => {
    expect(makeKubeConfig({ server: 'https://127.0.0.1:1', token: 'x', caPem: 'pem' }).getCurrentCluster()?.skipTLSVerify).toBe(false);
  });
});

describe('loadKubeConfig in a Pod the kubelet could not bind-mount (KV_CONTAINER_ROOT)', () => {
  const keys = ['KUBECONFIG', 'KUBERNETES_SERVICE_HOST', 'KUBERNETES_SERVICE_PORT', 'KV_CONTAINER_ROOT'] as const;
  const saved = Object.fromEntries(keys.map((k) => [k, process.env[k]]));
  let root = '';
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    for (const k of keys) if (saved[k] === undefined) delete process.env[k]; else process.env[k] = saved[k];
  });

  it('takes the in-cluster config from the service-account files under that root', () => {
    root = mkdtempSync(join(tmpdir(), 'kv-root-'));
    const sa = join(root, 'var/run/secrets/kubernetes.io/serviceaccount');
    mkdirSync(sa, { recursive: true });
    writeFileSync(join(sa, 'token'), 'tok');
    writeFileSync(join(sa, 'namespace'), 'apps');
    writeFileSync(join(sa, 'ca.crt'), 'PEM');
    delete process.env.KUBECONFIG;
    Object.assign(process.env, { KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: '6443', KV_CONTAINER_ROOT: root });
    const kc = loadKubeConfig();
    expect(kc.getCurrentCluster()).toMatchObject({ server: 'https://127.0.0.1:6443', caFile: join(sa, 'ca.crt') });
    expect(kc.getContextObject(kc.getCurrentContext())?.namespace).toBe('apps');
  });
});
