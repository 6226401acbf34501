/**
 * A real API server and one real kubelet (no pod network, host commands allowed) with real kubectl
 * for an admin and a viewer: the setup the kubelet API's integration tests share.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeKubeconfig } from '../../apiserver/kubeconfig';
import { startTestServer, type TestServer } from '../../apiserver/testing/test-server';
import { makeKubeClients, type KubeClients } from '../../kube/clients';
import { makeKubeConfig } from '../../kube/kubeconfig';
import { waitFor } from '../../kube/testing/wait-for';
import { Kubelet } from '../kubelet';
import { makeKubectl, type Kubectl } from '../../../e2e/support/kubectl';

export interface KubeletHarness {
  t: TestServer;
  c: KubeClients;
  admin: Kubectl;
  viewer: Kubectl;
  kubelet: Kubelet;
  /** stops the kubelet (and its Pods), the kubectls and the API server */
  close(): Promise<void>;
}

export async function startKubeletHarness(node: string): Promise<KubeletHarness> {
  const t = await startTestServer();
  const home = mkdtempSync(join(tmpdir(), `kv-${node}-home-`));
  writeKubeconfig(join(home, 'admin'), { server: t.srv.url, caPem: t.srv.caPem, token: t.srv.adminToken });
  writeKubeconfig(join(home, 'viewer'), { server: t.srv.url, caPem: t.srv.caPem, token: t.srv.viewerToken });
  const admin = makeKubectl(join(home, 'admin'), '20s');
  const viewer = makeKubectl(join(home, 'viewer'), '20s');
  const kc = makeKubeConfig({ server: t.srv.url, token: t.srv.adminToken, caPem: t.srv.caPem });
  const c = makeKubeClients(kc);
  const kubelet = new Kubelet({ kc, nodeName: node, dataDir: t.dataDir, leaseIntervalMs: 500, stopPodsOnExit: true, allowHostCommands: true, podNetwork: false });
  const stop = new AbortController();
  const running = kubelet.run(stop.signal);
  await waitFor(async () => ((await c.core.readNode({ name: node }).catch(() => undefined))?.status?.daemonEndpoints?.kubeletEndpoint?.Port ?? 0) > 0, 15_000, 'kubelet endpoint published');
  return {
    t, c, admin, viewer, kubelet,
    async close() {
      stop.abort();
      await running;
      admin.dispose();
      viewer.dispose();
      await t.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
