/**
 * The install of docs/cluster-mode.md ("Install onto kv up --bare") as the e2e tests run it: CRDs,
 * namespace, handler token Secret, `kubectl apply -k deploy/cluster`, `kv install-certs`, then the
 * rollouts. Shared by e2e/cluster-install.test.ts and the cluster journey's global setup.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Kubectl } from './kubectl';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const KV = fileURLToPath(new URL('../../bin/kv.mjs', import.meta.url));
/** the node-local store the handler DaemonSet and launcher Pods mount (one host directory here) */
export const NODE_DIR = '/var/lib/kubevirt-ts';
/** `kv console` serves the production build (`npm run build`; the image's Dockerfile runs it) */
export const consoleBuilt = (): boolean => existsSync(`${ROOT}.next/BUILD_ID`);

/** Runs kubectl and throws with its stderr unless it exits 0; returns stdout. */
export async function kubectlOk(k: Kubectl, ...args: string[]): Promise<string> {
  const r = await k.run(...args);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} (exit ${r.code}): ${r.err}`);
  return r.out;
}

export interface InstallResult {
  /** what `kv install-certs` printed */
  certs: string;
  /** whether the console's rollout was waited for (it needs the Next build) */
  consoleReady: boolean;
  /** from the first `kubectl apply` to every rollout done */
  readyMs: number;
}

/** Installs deploy/cluster onto the cluster `k` talks to and waits until every component is Ready. */
export async function installFromDeploy(k: Kubectl): Promise<InstallResult> {
  const started = performance.now();
  await kubectlOk(k, 'apply', '--server-side', '-f', `${ROOT}deploy/crds`);
  await kubectlOk(k, 'create', 'namespace', 'kubevirt');
  const token = execFileSync('openssl', ['rand', '-hex', '32'], { encoding: 'utf8' }).trim();
  await kubectlOk(k, '-n', 'kubevirt', 'create', 'secret', 'generic', 'virt-handler-token', `--from-literal=token=${token}`);
  await kubectlOk(k, 'apply', '-k', `${ROOT}deploy/cluster`);
  const certs = execFileSync(process.execPath, [KV, 'install-certs', '--kubeconfig', k.kubeconfig], { encoding: 'utf8' });
  await kubectlOk(k, '-n', 'kubevirt', 'rollout', 'status', 'deploy/virt-api', '--timeout=240s');
  await kubectlOk(k, '-n', 'kubevirt', 'rollout', 'status', 'deploy/virt-controller', '--timeout=120s');
  const consoleReady = consoleBuilt();
  if (consoleReady) await kubectlOk(k, '-n', 'kubevirt', 'rollout', 'status', 'deploy/kubevirt-console', '--timeout=120s');
  await kubectlOk(k, '-n', 'kubevirt', 'rollout', 'status', 'ds/virt-handler', '--timeout=120s');
  return { certs, consoleReady, readyMs: performance.now() - started };
}

/** Builds the demo containerDisk into the nodes' image store (`kv images build-demo`). */
export function buildDemoImage(): void {
  execFileSync(process.execPath, [KV, 'images', 'build-demo', '--data-dir', NODE_DIR], { stdio: 'ignore' });
}
