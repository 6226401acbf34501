import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { readApiAccess, type ApiAccess } from '../server/up/readiness';

const kvBin = fileURLToPath(new URL('../bin/kv.mjs', import.meta.url));

export interface TestCluster {
  /** false on an existing cluster (KV_E2E_KUBECONFIG): no data dir, no local nodes to kill */
  embedded: boolean;
  /** the embedded cluster's data dir; '' on an existing cluster */
  dataDir: string;
  kubeconfig: string;
  access: ApiAccess;
  apiPort: number;
  consoleUrl?: string;
  /** the console origin virt-api lets open console sockets (also with --no-console: the port kv up was given) */
  consoleOrigin: string;
  /** the sign-in URL `kv up` printed */
  loginUrl?: string;
  output: () => string;
  stop: () => Promise<void>;
}

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolvePort(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Starts a whole embedded cluster (`kv up`) in a fresh temp data dir and waits for its `ready`
 * line. `stop()` sends SIGTERM, waits for `kv up` to exit and removes the data dir.
 */
export async function startCluster(opts: { nodes?: number; console?: boolean; timeoutMs?: number; bare?: boolean; /** more `kv up` flags */ upArgs?: string[]; /** more environment for `kv up` (e.g. KV_DEMO_IMAGE_DIR) */ env?: Record<string, string> } = {}): Promise<TestCluster> {
  const existing = opts.bare ? undefined : useExistingCluster();
  if (existing) return existing;
  const dataDir = mkdtempSync(join(tmpdir(), 'kv-test-'));
  const apiPort = await freePort();
  const consolePort = await freePort();
  const args = [kvBin, 'up', '--data-dir', dataDir, '--nodes', String(opts.nodes ?? 2), '--api-port', String(apiPort), '--console-port', String(consolePort)];
  if (opts.console === false) args.push('--no-console');
  if (opts.bare) args.push('--bare');
  args.push(...(opts.upArgs ?? []));
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KV_LOG_LEVEL: process.env.KV_LOG_LEVEL ?? 'warn', ...opts.env } });
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const ready = await new Promise<string>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`cluster not ready within ${opts.timeoutMs ?? 120_000} ms:\n${out}`)), opts.timeoutMs ?? 120_000);
    const onData = () => {
      const line = out.split('\n').find((l) => l.includes('ready:'));
      if (line) { clearTimeout(timer); resolveReady(line); }
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`kv up exited with ${code}:\n${out}`)); });
  });
  const kubeconfig = join(dataDir, 'kubeconfig');
  const loginUrl = /console (\S+)/.exec(ready)?.[1];
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      await exited;
      clearTimeout(timer);
    }
    // KV_TEST_KEEP_DATA=1 keeps the data dir (its logs) for a post-mortem
    if (process.env.KV_TEST_KEEP_DATA === '1') process.stderr.write(`kept the data dir of a test cluster: ${dataDir}\n`);
    else rmSync(dataDir, { recursive: true, force: true });
  };
  return {
    embedded: true, dataDir, kubeconfig, apiPort, access: readApiAccess(kubeconfig)!,
    consoleUrl: opts.console === false ? undefined : `http://127.0.0.1:${consolePort}`,
    consoleOrigin: `http://127.0.0.1:${consolePort}`,
    loginUrl: loginUrl?.startsWith('http') ? loginUrl : undefined,
    output: () => out, stop,
  };
}

/** The kubeconfig of a cluster the suite should use instead of starting `kv up`, if one is named. */
function existingKubeconfig(env: NodeJS.ProcessEnv): string | undefined {
  if (env.KV_E2E_KUBECONFIG) return env.KV_E2E_KUBECONFIG;
  if (env.KV_E2E_EXISTING === '1') return env.KUBECONFIG?.split(':').find((p) => p !== '');
  return undefined;
}

/**
 * A real cluster with kubevirt-ts installed (docs/cluster-mode.md), when `KV_E2E_KUBECONFIG` (or
 * `KUBECONFIG` with `KV_E2E_EXISTING=1`) names one; otherwise undefined. The bearer token is the
 * kubeconfig user's, or `KV_E2E_TOKEN` for a client-certificate kubeconfig (kind's); the console URL
 * is `KV_E2E_CONSOLE_URL` (e.g. a port-forward). `stop()` leaves the cluster alone.
 */
export function useExistingCluster(env: NodeJS.ProcessEnv = process.env): TestCluster | undefined {
  const kubeconfig = existingKubeconfig(env);
  if (!kubeconfig) return undefined;
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error(`${kubeconfig}: no current cluster`);
  const url = new URL(cluster.server);
  const ca = cluster.caData ? Buffer.from(cluster.caData, 'base64').toString() : '';
  return {
    embedded: false, dataDir: '', kubeconfig,
    access: { server: cluster.server, ca, token: env.KV_E2E_TOKEN ?? kc.getCurrentUser()?.token ?? '' },
    apiPort: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    consoleUrl: env.KV_E2E_CONSOLE_URL,
    consoleOrigin: env.KV_E2E_CONSOLE_URL ?? 'http://127.0.0.1:3000',
    output: () => '',
    stop: async () => {},
  };
}
