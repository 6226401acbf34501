/**
 * Global setup of `npm run test:cluster` (playwright.cluster.config.ts): `kv up --bare --nodes 2`,
 * kubevirt-ts installed onto it from deploy/ with kubectl (e2e/support/install-deploy.ts), the demo
 * image in the nodes' store, a cluster-admin ServiceAccount's token from `kubectl create token`,
 * and `kubectl port-forward svc/kubevirt-console` — what a user does on kind (docs/cluster-mode.md).
 * Prints install → ready; the teardown stops the port-forward and the cluster.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { freePort, startCluster, type TestCluster } from './harness';
import { makeKubectl, type Kubectl } from './support/kubectl';
import { until } from './support/rest';
import { buildDemoImage, consoleBuilt, installFromDeploy, kubectlOk, NODE_DIR } from './support/install-deploy';

/** launcher pod dirs in the nodes' host directory (only a bare cluster's launchers write there) */
function launcherPodDirs(): string[] {
  const nodes = `${NODE_DIR}/nodes`;
  if (!existsSync(nodes)) return [];
  return readdirSync(nodes).flatMap((n) => (existsSync(`${nodes}/${n}/pods`) ? readdirSync(`${nodes}/${n}/pods`).map((p) => `${nodes}/${n}/pods/${p}`) : []));
}

/**
 * Before the cluster stops: no VM left, and virt-handler (`--clean-pod-dirs`, every 15 s) has removed
 * the launchers' pod dirs from the host directory, which outlives the cluster (as a kind node's would).
 */
async function leaveNoVm(k: Kubectl, leftBefore: ReadonlySet<string>): Promise<void> {
  await kubectlOk(k, 'delete', 'vm,vmi', '--all', '-A', '--ignore-not-found', '--wait=true', '--timeout=120s');
  await until('no launcher Pod', async () => (await kubectlOk(k, 'get', 'pods', '-A', '-l', 'kubevirt.io=virt-launcher', '-o', 'name')).trim() === '', 60_000);
  // only this cluster's: an uninstalled cluster's handler swept none of its own (docs/cluster-mode.md, limitations)
  await until(`no launcher pod dir of this cluster under ${NODE_DIR}/nodes (virt-handler sweeps them)`, () => launcherPodDirs().every((d) => leftBefore.has(d)), 45_000);
}

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
  if (process.env.KV_POD_NETWORK === '0') throw new Error('the installed components need the pod network (each Pod its own IP): unset KV_POD_NETWORK and run when no other kv up runs');
  const leftBefore = new Set(launcherPodDirs());
  const cluster: TestCluster = await startCluster({ bare: true, nodes: 2, console: false, timeoutMs: 180_000 });
  const k = makeKubectl(cluster.kubeconfig, '60s');
  let forward: ChildProcessWithoutNullStreams | undefined;
  const teardown = async () => {
    forward?.kill('SIGTERM');
    try {
      await leaveNoVm(k, leftBefore);
    } finally {
      k.dispose();
      await cluster.stop();
    }
  };
  try {
    const { readyMs } = await installFromDeploy(k);
    console.log(`install → ready: ${(readyMs / 1000).toFixed(1)} s (CRDs, deploy/cluster, certificates; virt-api, virt-controller, console and both virt-handlers rolled out)`);
    buildDemoImage();
    // the user the journey signs in as: a ServiceAccount, not cluster-admin, with Kubernetes' `edit` (deploy/'s
    // kubevirt.io:edit aggregates into it) and deploy/'s kubevirt.io:migrate; its token from `kubectl create token`.
    // Bound cluster-wide (a RoleBinding per namespace works as well: the console asks per namespace, docs/console.md)
    await kubectlOk(k, 'create', 'serviceaccount', 'e2e', '-n', 'default');
    await kubectlOk(k, 'create', 'clusterrolebinding', 'e2e-edit', '--clusterrole=edit', '--serviceaccount=default:e2e');
    await kubectlOk(k, 'create', 'clusterrolebinding', 'e2e-migrate', '--clusterrole=kubevirt.io:migrate', '--serviceaccount=default:e2e');
    const token = (await kubectlOk(k, 'create', 'token', 'e2e', '-n', 'default', '--duration=2h')).trim();
    const console_ = await forwardConsole(k);
    forward = console_.proc;
    process.env.KV_E2E_CONSOLE_URL = console_.url;
    process.env.KV_E2E_KUBECONFIG = cluster.kubeconfig;
    process.env.KV_E2E_BARE_DATA_DIR = cluster.dataDir; // the bare cluster's own (API server, kubelets); no component reads it
    process.env.KV_E2E_TOKEN = token;
    process.env.KV_E2E_JOURNEY_STARTED = String(Date.now());
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
