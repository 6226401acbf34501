/**
 * `kv up` applies the cluster's defaults (defaults.ts) from a short-lived `kv defaults` child, so the
 * supervisor, which runs as long as the cluster, never loads @kubernetes/client-node (~65 MiB of RSS:
 * docs/performance.md, "Footprint"). Nothing here may import the Kubernetes client.
 */
import { spawn } from 'node:child_process';
import { kvScript } from './supervisor';

/** Runs `kv defaults` as a child; resolves with its line, rejects with its error output. */
export function applyDefaultsInChild(dataDir: string, env: Record<string, string> = {}, bare = false): Promise<string> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [kvScript, 'defaults', '--data-dir', dataDir, ...(bare ? ['--bare'] : [])], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolveRun(out.trim()) : reject(new Error(`applying the cluster defaults failed (exit ${code}): ${err.trim().split('\n').slice(-3).join(' ')}`))));
  });
}
