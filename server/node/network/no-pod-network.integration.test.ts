/**
 * The fallback: `kv up` with the pod network turned off (KV_POD_NETWORK=0, what a machine without
 * root or nftables gets) still runs guests, and says what it lacks at start and on every Node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../../../e2e/harness';
import { makeKubeClients, type KubeClients } from '../../kube/clients';
import { makeKubeConfig } from '../../kube/kubeconfig';

let cluster: TestCluster;
let k: KubeClients;

describe('kv up without a pod network', () => {
  beforeAll(async () => {
    process.env.KV_POD_NETWORK = '0';
    cluster = await startCluster({ nodes: 1, console: false });
    k = makeKubeClients(makeKubeConfig({ server: cluster.access.server, token: cluster.access.token, caPem: cluster.access.ca }));
  }, 180_000);
  afterAll(async () => {
    await cluster?.stop();
    delete process.env.KV_POD_NETWORK;
  }, 90_000);

  it('prints what is missing at start and reports NetworkUnavailable on the Node', async () => {
    expect(cluster.output()).toContain("no pod network: pods share the host's network: the pod network is turned off");
    const node = await k.core.readNode({ name: 'node-1' });
    expect(node.spec?.podCIDR).toBeUndefined();
    expect(node.status?.conditions?.find((c) => c.type === 'NetworkUnavailable')).toMatchObject({ status: 'True', reason: 'NoPodNetwork' });
  });

  it('still runs a guest, on the host network behind QEMU user networking', async () => {
    await k.vmis.create('default', {
      apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'plain', namespace: 'default' },
      spec: { terminationGracePeriodSeconds: 0, domain: { memory: { guest: '128Mi' }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }] } }, volumes: [{ name: 'root', containerDisk: { image: 'demo' } }] },
    } as never);
    const deadline = Date.now() + 120_000;
    let vmi: { status?: { phase?: string; interfaces?: { ipAddress?: string }[]; conditions?: { type: string; status: string; reason?: string }[] } } | undefined;
    while (Date.now() < deadline) {
      vmi = (await k.vmis.get('default', 'plain')) as typeof vmi;
      if (vmi?.status?.phase === 'Running' && vmi.status.interfaces?.length) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(vmi?.status?.phase).toBe('Running');
    expect(vmi?.status?.interfaces?.[0]?.ipAddress).toBe('10.0.2.2');
    expect(vmi?.status?.conditions?.find((c) => c.type === 'NetworkUnavailable')).toMatchObject({ status: 'True', reason: 'NoPodNetwork' });
    const pods = await k.core.listNamespacedPod({ namespace: 'default' });
    expect(pods.items[0]?.status?.podIP).toBe('127.0.0.1');
  });
});
