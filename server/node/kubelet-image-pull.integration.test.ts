/**
 * The kubelet pulls a launcher Pod's containerDisks from a real registry on loopback (token auth,
 * credentials from the Pod's imagePullSecrets) before the container starts, and shows a failed pull
 * as the container's waiting reason with the registry's answer.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataPaths } from '../data-dir';
import { makeKubeClients, type KubeClients } from '../kube/clients';
import { startTestApiServer } from '../kube/testing/api-server';
import { waitFor } from '../kube/testing/wait-for';
import { resolveImage } from '../images/image-store';
import { readManifest } from '../images/store-layout';
import { TestRegistry } from '../images/testing/oci-registry';
import { Kubelet } from './kubelet';

const NODE = 'node-pull';

function podWithDisks(name: string, images: { image: string; imagePullPolicy?: string }[], secret?: string): V1Pod {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace: 'default', annotations: { 'kubevirt-ts.io/container-disks': JSON.stringify(images) } },
    spec: {
      nodeName: NODE, restartPolicy: 'Never', containers: [{ name: 'compute', image: 'host', command: ['sh', '-c', 'sleep 30'] }],
      ...(secret ? { imagePullSecrets: [{ name: secret }] } : {}),
    },
  };
}

describe('kubelet image pulls', () => {
  let api: Awaited<ReturnType<typeof startTestApiServer>>;
  let c: KubeClients;
  let reg: TestRegistry;
  const stop = new AbortController();
  let running: Promise<void>;

  beforeAll(async () => {
    api = await startTestApiServer();
    c = makeKubeClients(api.kc);
    reg = await new TestRegistry({ auth: { username: 'puller', password: 'secret' } }).start();
    const kubelet = new Kubelet({ kc: api.kc, nodeName: NODE, dataDir: api.dataDir, nodesTotal: 1, leaseIntervalMs: 500, stopPodsOnExit: true, allowHostCommands: true });
    running = kubelet.run(stop.signal);
  });
  afterAll(async () => {
    stop.abort();
    await running;
    await reg?.stop();
    await api?.stop();
  });

  const getPod = (name: string) => c.core.readNamespacedPod({ namespace: 'default', name }).catch(() => undefined);
  const waiting = (p: V1Pod | undefined) => p?.status?.containerStatuses?.[0]?.state?.waiting;

  it('pulls with the Pod\'s pull secret, then starts the container', async () => {
    const pushed = await reg.pushContainerDisk('containerdisks/demo-disk', 'v1', Buffer.alloc(1 << 20, 9));
    const auth = Buffer.from('puller:secret').toString('base64');
    await c.core.createNamespacedSecret({ namespace: 'default', body: {
      metadata: { name: 'regcred' }, type: 'kubernetes.io/dockerconfigjson',
      data: { '.dockerconfigjson': Buffer.from(JSON.stringify({ auths: { [reg.host]: { auth } } })).toString('base64') },
    } });
    await c.core.createNamespacedPod({ namespace: 'default', body: podWithDisks('pulled', [{ image: pushed.reference }], 'regcred') });
    await waitFor(async () => (await getPod('pulled'))?.status?.phase === 'Running', 20_000, 'Running');
    const entry = resolveImage(dataPaths(api.dataDir).images, pushed.reference);
    expect(entry?.format).toBe('raw');
    expect(readManifest(entry!.dir)?.digest).toBe(pushed.manifestDigest);
    const events = await c.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=pulled' });
    expect(events.items.map((e) => `${e.reason}: ${e.message}`).join('\n')).toMatch(`Pulled: Successfully pulled image "${pushed.reference}"`);
  });

  it('a migration target Pod takes the digest in the store, even with Always and a moved tag', async () => {
    const first = await reg.pushContainerDisk('containerdisks/moving', 'latest', Buffer.alloc(4096, 1));
    await c.core.createNamespacedPod({ namespace: 'default', body: podWithDisks('source', [{ image: first.reference, imagePullPolicy: 'Always' }], 'regcred') });
    await waitFor(async () => (await getPod('source'))?.status?.phase === 'Running', 20_000, 'source Running');
    await reg.pushContainerDisk('containerdisks/moving', 'latest', Buffer.alloc(4096, 2));
    reg.resetCounts();
    const target = podWithDisks('target', [{ image: first.reference, imagePullPolicy: 'Always' }], 'regcred');
    target.metadata!.annotations!['kubevirt.io/migrationJobName'] = 'vmim-1';
    await c.core.createNamespacedPod({ namespace: 'default', body: target });
    await waitFor(async () => (await getPod('target'))?.status?.phase === 'Running', 20_000, 'target Running');
    expect(reg.counts).toMatchObject({ manifestGet: 0, manifestHead: 0, blobGet: 0 });
    expect(readManifest(resolveImage(dataPaths(api.dataDir).images, first.reference)!.dir)?.digest).toBe(first.manifestDigest);
  });

  it('keeps the container waiting with the registry\'s answer when the pull fails', async () => {
    const image = `${reg.host}/containerdisks/demo-disk:no-such-tag`;
    await c.core.createNamespacedPod({ namespace: 'default', body: podWithDisks('missing', [{ image }], 'regcred') });
    const w = await waitFor(async () => {
      const x = waiting(await getPod('missing'));
      return x?.reason === 'ErrImagePull' || x?.reason === 'ImagePullBackOff' ? x : undefined;
    }, 20_000, 'pull failure');
    expect(w.message).toContain(`failed to pull image "${image}": manifest unknown: manifest unknown`);
    expect((await getPod('missing'))?.status?.phase).toBe('Pending');
  });

  it('says unauthorized without the pull secret', async () => {
    const image = `${reg.host}/containerdisks/demo-disk:v1-nocreds`;
    await reg.pushContainerDisk('containerdisks/demo-disk', 'v1-nocreds', Buffer.alloc(4096, 1));
    await c.core.createNamespacedPod({ namespace: 'default', body: podWithDisks('nocreds', [{ image, imagePullPolicy: 'Always' }]) });
    const w = await waitFor(async () => {
      const x = waiting(await getPod('nocreds'));
      return x?.reason === 'ErrImagePull' || x?.reason === 'ImagePullBackOff' ? x : undefined;
    }, 20_000, 'pull failure');
    expect(w.message).toMatch(/unauthorized: the token service answered 401/);
  });
});
