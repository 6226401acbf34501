/** Test support: run `kv launcher` as a real process on a temp pod dir, and always clean up. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LauncherClient } from './launcher-client';
import { POD_FILES } from './protocol';
import type { LauncherVMI } from './vmi-types';

const KV = resolve(import.meta.dirname, '../../bin/kv.mjs');

export interface TestLauncher {
  podDir: string; dataDir: string; proc: ChildProcess; client: LauncherClient;
  exited: Promise<number | null>; termination: () => { reason?: string; message?: string; exitCode?: number } | undefined;
  stop: () => Promise<void>;
}

export async function waitFor<T>(fn: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export function isAlive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch { return false; }
}

/** `netns`: run in that network namespace (`ip netns exec`), as in a Pod's (give POD_IP in `env`) */
export async function startTestLauncher(opts: { dataDir?: string; env?: Record<string, string>; netns?: string } = {}): Promise<TestLauncher> {
  const root = mkdtempSync(join(tmpdir(), 'kv-launcher-'));
  const dataDir = opts.dataDir ?? join(root, 'data');
  // inside the data dir, as a cluster's pod dirs are (what QEMU's user is given access to: qemu-ownership.ts)
  const podDir = join(root, 'data', 'pod');
  mkdirSync(podDir, { recursive: true });
  const argv = [process.execPath, KV, 'launcher'];
  if (opts.netns) argv.unshift('ip', 'netns', 'exec', opts.netns);
  const proc = spawn(argv[0], argv.slice(1), {
    env: { ...process.env, KV_POD_DIR: podDir, KV_DATA_DIR: dataDir, KV_ACCEL: 'tcg', KV_LOG_LEVEL: 'warn', ...opts.env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  await waitFor(() => existsSync(join(podDir, POD_FILES.launcherReady)), 15_000, 'launcher.ready');
  const client = await LauncherClient.connect(podDir);
  const termination = () => {
    try { return JSON.parse(readFileSync(join(podDir, POD_FILES.termination), 'utf8')); } catch { return undefined; }
  };
  const stop = async () => {
    client.close();
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exited;
    rmSync(root, { recursive: true, force: true });
  };
  return { podDir, dataDir, proc, client, exited, termination, stop };
}

/** A process's real, effective, saved and filesystem uids (all four: a drop that held) */
export function uidsOf(pid: number | undefined): number[] {
  const line = /^Uid:\s+(.*)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '';
  return line.trim().split(/\s+/).map(Number);
}

/** A VMI QEMU can run without any image: SeaBIOS, no disks, no NIC, VGA on. */
export function tinyVMI(overrides: Partial<LauncherVMI['spec']> = {}, uid = '11111111-2222-3333-4444-555555555555'): LauncherVMI {
  return {
    metadata: { name: 'tiny', namespace: 'default', uid },
    spec: { domain: { memory: { guest: '64Mi' }, devices: { autoattachPodInterface: false } }, terminationGracePeriodSeconds: 1, ...overrides },
  };
}
