/**
 * Global setup of `npm run test:cluster` (playwright.cluster.config.ts): `kv up --bare --nodes 2`,
 * kubevirt-ts installed onto it from deploy/ with kubectl (e2e/support/install-deploy.ts), the demo
 * image in the nodes' store, a cluster-admin ServiceAccount's token from `kubectl create token`,
 * and `kubectl port-forward svc/kubevirt-console` — what a user does on kind (docs/cluster-mode.md).
 * Prints install → ready; the teardown stops the port-forward and the cluster.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { freePort, startCluster, type TestCluster } from './harness';
import { makeKubectl, type Kubectl } from './support/kubectl';
import { buildDemoImage, consoleBuilt, installFromDeploy, kubectlOk } from './support/install-deploy';

/** `kubectl port-forward` to the console's Service on a free local port; resolves once it forwards. */
async function forwardConsole(k: Kubectl): Promise<{ url: string; proc: ChildProcessWithoutNullStreams }> {
  const port = await freePort();
  const proc = k.start('-n', 'kubevirt', 'port-forward', 'svc/kubevirt-console', `${port}:80`, '--address', '127.0.0.1');
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kubectl port-forward did not start: ${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d;
      if (out.includes('Forwarding from')) { clearTimeout(timer); resolve(); }
    };
    proc.stdout.on('data', onData);
    proc.stderr.on('data', onData);
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`kubectl port-forward exited ${code}: ${out}`)); });
  });
  return { url: `http://127.0.0.1:${port}`, proc };
}

export default async function clusterJourneySetup(): Promise<() => Promise<void>> {
  if (!consoleBuilt()) throw new Error('the console Deployment serves the Next build: run `npx next build` first (the image\'s Dockerfile does)');
  const cluster: TestCluster = await startCluster({ bare: true, nodes: 2, console: false, timeoutMs: 180_000 });
  const k = makeKubectl(cluster.kubeconfig, '60s');
  let forward: ChildProcessWithoutNullStreams | undefined;
  const teardown = async () => {
    forward?.kill('SIGTERM');
    k.dispose();
    await cluster.stop();
  };
  try {
    const { readyMs } = await installFromDeploy(k);
    console.log(`install → ready: ${(readyMs / 1000).toFixed(1)} s (CRDs, deploy/cluster, certificates; virt-api, virt-controller, console and both virt-handlers rolled out)`);
    buildDemoImage();
    // the user the journey signs in as: a ServiceAccount bound to cluster-admin, its token from `kubectl create token`
    await kubectlOk(k, 'create', 'serviceaccount', 'e2e', '-n', 'default');
    await kubectlOk(k, 'create', 'clusterrolebinding', 'e2e', '--clusterrole=cluster-admin', '--serviceaccount=default:e2e');
    const token = (await kubectlOk(k, 'create', 'token', 'e2e', '-n', 'default', '--duration=2h')).trim();
    const console_ = await forwardConsole(k);
    forward = console_.proc;
    process.env.KV_E2E_CONSOLE_URL = console_.url;
    process.env.KV_E2E_KUBECONFIG = cluster.kubeconfig;
    process.env.KV_E2E_TOKEN = token;
    process.env.KV_E2E_JOURNEY_STARTED = String(Date.now());
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
