import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
