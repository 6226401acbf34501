/** The real /usr/bin/kubectl with its own HOME (discovery cache) against a test cluster's kubeconfig. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const KUBECTL = '/usr/bin/kubectl';

export interface Kubectl {
  run(...args: string[]): Promise<{ code: number; out: string; err: string }>;
  /** Writes `text` into kubectl's HOME and returns the path (for `apply -f`). */
  file(name: string, text: string): string;
  dispose(): void;
}

export function makeKubectl(kubeconfig: string, requestTimeout = '30s'): Kubectl {
  const home = mkdtempSync(join(tmpdir(), 'kv-kubectl-home-'));
  return {
    run: (...args) => new Promise((resolve) => {
      const p = spawn(KUBECTL, ['--kubeconfig', kubeconfig, `--request-timeout=${requestTimeout}`, ...args], { env: { ...process.env, HOME: home, KUBECONFIG: kubeconfig } });
      let out = '';
      let err = '';
      p.stdout.on('data', (d) => { out += d; });
      p.stderr.on('data', (d) => { err += d; });
      p.on('close', (code) => resolve({ code: code ?? -1, out, err }));
    }),
    file: (name, text) => {
      const path = join(home, name);
      writeFileSync(path, text);
      return path;
    },
    dispose: () => rmSync(home, { recursive: true, force: true }),
  };
}
