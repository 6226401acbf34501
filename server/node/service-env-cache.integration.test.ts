/**
 * The kubelet's Service cache against a real API server: what a container's service env is built
 * from, without a read per container start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKubeClients, type KubeClients } from '../kube/clients';
import { startTestApiServer } from '../kube/testing/api-server';
import { waitFor } from '../kube/testing/wait-for';
import { ServiceEnvCache } from './service-env-cache';

describe('ServiceEnvCache', () => {
  let api: Awaited<ReturnType<typeof startTestApiServer>>;
  let c: KubeClients;
  const stop = new AbortController();
  let cache: ServiceEnvCache;
  let running: Promise<void>;

  beforeAll(async () => {
    api = await startTestApiServer();
    c = makeKubeClients(api.kc);
    await c.core.createNamespace({ body: { metadata: { name: 'shop' } } });
    await c.core.createNamespacedService({ namespace: 'shop', body: { metadata: { name: 'cart' }, spec: { ports: [{ port: 8080 }] } } });
    cache = new ServiceEnvCache(api.kc);
    running = cache.run(stop.signal);
  });
  afterAll(async () => {
    stop.abort();
    await running;
    await api?.stop();
  });

  const names = (ns: string, links: boolean) => cache.snapshot(ns, links)?.services.map((s) => `${s.metadata?.namespace}/${s.metadata?.name}`).sort();

  it('gives the namespace\'s Services, the kubernetes Service and its endpoint once synced, and follows new Services', async () => {
    const first = await waitFor(() => cache.snapshot('shop', true), 10_000, 'synced');
    const url = new URL(api.url);
    expect(first.kubernetesEndpoint).toEqual({ host: url.hostname, port: Number(url.port) });
    expect(names('shop', true)).toEqual(['default/kubernetes', 'shop/cart']);
    expect(names('shop', false)).toEqual(['default/kubernetes']); // enableServiceLinks: false
    expect(names('default', true)).toEqual(['default/kubernetes']);
    await c.core.createNamespacedService({ namespace: 'shop', body: { metadata: { name: 'pay' }, spec: { ports: [{ port: 9090 }] } } });
    await waitFor(() => names('shop', true)?.includes('shop/pay'), 5000, 'new Service seen');
  });
});
