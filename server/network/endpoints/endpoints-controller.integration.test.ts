import { DiscoveryV1Api, type V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNotFound } from '../../kube/api-errors';
import { makeKubeClients, mergePatch, type KubeClients } from '../../kube/clients';
import { startTestApiServer } from '../../kube/testing/api-server';
import { waitFor } from '../../kube/testing/wait-for';
import { log } from '../../log';
import { runEndpointsController } from './endpoints-controller';

const NS = 'default';

const pod = (name: string, labels: Record<string, string>): V1Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: NS, labels },
  spec: { nodeName: 'node-1', containers: [{ name: 'compute', image: 'x', ports: [{ name: 'http', containerPort: 8080 }] }] },
});

describe('endpoints controller against the embedded API server', () => {
  let api: Awaited<ReturnType<typeof startTestApiServer>>;
  let c: KubeClients;
  let discovery: DiscoveryV1Api;
  const stop = new AbortController();
  let running: Promise<void>;

  const setStatus = (name: string, podIP: string, ready: boolean) => c.core.patchNamespacedPodStatus({
    namespace: NS, name,
    body: { status: { phase: 'Running', podIP, podIPs: [{ ip: podIP }], conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } },
  }, mergePatch);
  const slicesOf = async (svc: string) => (await discovery.listNamespacedEndpointSlice({ namespace: NS, labelSelector: `kubernetes.io/service-name=${svc}` })).items;
  const endpointsOf = async (svc: string) => {
    try {
      return await c.core.readNamespacedEndpoints({ namespace: NS, name: svc });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  };

  beforeAll(async () => {
    api = await startTestApiServer();
    c = makeKubeClients(api.kc);
    discovery = api.kc.makeApiClient(DiscoveryV1Api);
    for (const [name, labels] of [['web-a', { app: 'web' }], ['web-b', { app: 'web' }], ['web-user-net', { app: 'web' }], ['other', { app: 'db' }]] as const) {
      await c.core.createNamespacedPod({ namespace: NS, body: pod(name, labels) });
    }
    await setStatus('web-a', '10.244.1.5', true);
    await setStatus('web-b', '10.244.1.6', false);
    await setStatus('web-user-net', '127.0.0.1', true);
    await setStatus('other', '10.244.1.7', true);
    await c.core.createNamespacedService({
      namespace: NS,
      body: { metadata: { name: 'web', labels: { tier: 'front' } }, spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' as never }, { name: 'metrics', port: 9090 }] } },
    });
    running = runEndpointsController({ kc: api.kc, signal: stop.signal, log });
  }, 30_000);
  afterAll(async () => {
    stop.abort();
    await running;
    await api?.stop();
  });

  it('writes Endpoints: the ready Pod in addresses, the unready one in notReadyAddresses, named targetPort resolved', async () => {
    const ep = await waitFor(async () => (await endpointsOf('web'))?.subsets?.length ? endpointsOf('web') : undefined, 10_000, 'Endpoints web');
    expect(ep!.subsets).toEqual([{
      addresses: [{ ip: '10.244.1.5', nodeName: 'node-1', targetRef: expect.objectContaining({ kind: 'Pod', name: 'web-a', namespace: NS }) }],
      notReadyAddresses: [{ ip: '10.244.1.6', nodeName: 'node-1', targetRef: expect.objectContaining({ kind: 'Pod', name: 'web-b' }) }],
      ports: [{ name: 'http', port: 8080, protocol: 'TCP' }, { name: 'metrics', port: 9090, protocol: 'TCP' }],
    }]);
    expect(ep!.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Service', name: 'web', controller: true });
  });

  it('writes one EndpointSlice with kube\'s labels, conditions and ports; the 127.0.0.1 Pod is left out', async () => {
    const [slice] = await waitFor(async () => ((await slicesOf('web'))[0]?.endpoints?.length ? slicesOf('web') : undefined), 10_000, 'slice of web');
    expect((await slicesOf('web')).length).toBe(1);
    expect(slice.metadata?.name).toMatch(/^web-[a-z0-9]{5}$/);
    expect(slice.metadata?.labels).toEqual({ tier: 'front', 'kubernetes.io/service-name': 'web', 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' });
    expect(slice.addressType).toBe('IPv4');
    expect(slice.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }, { name: 'metrics', port: 9090, protocol: 'TCP' }]);
    expect(slice.endpoints.map((e) => [e.addresses[0], e.conditions, e.nodeName, e.targetRef?.name])).toEqual([
      ['10.244.1.5', { ready: true, serving: true, terminating: false }, 'node-1', 'web-a'],
      ['10.244.1.6', { ready: false, serving: false, terminating: false }, 'node-1', 'web-b'],
    ]);
  });

  it('follows readiness, and leaves the slice alone when nothing it shows changed', async () => {
    await setStatus('web-b', '10.244.1.6', true);
    const ready = await waitFor(async () => {
      const [s] = await slicesOf('web');
      return s?.endpoints?.every((e) => e.conditions?.ready) ? s : undefined;
    }, 10_000, 'both endpoints ready');
    const eps = await waitFor(async () => ((await endpointsOf('web'))?.subsets?.[0].addresses?.length === 2 ? endpointsOf('web') : undefined), 10_000, 'both addresses ready');
    expect(eps!.subsets?.[0].addresses?.map((a) => a.ip)).toEqual(['10.244.1.5', '10.244.1.6']);
    await c.core.patchNamespacedPod({ namespace: NS, name: 'web-a', body: { metadata: { annotations: { touched: 'yes' } } } }, mergePatch);
    await new Promise((r) => setTimeout(r, 500));
    expect((await slicesOf('web'))[0].metadata?.resourceVersion).toBe(ready.metadata?.resourceVersion);
    expect((await endpointsOf('web'))?.metadata?.resourceVersion).toBe(eps!.metadata?.resourceVersion);
  });

  it('removes the Endpoints and slices with the Service', async () => {
    await c.core.deleteNamespacedService({ namespace: NS, name: 'web' });
    await waitFor(async () => (await slicesOf('web')).length === 0 && !(await endpointsOf('web')), 10_000, 'slices and Endpoints gone');
  });
});
