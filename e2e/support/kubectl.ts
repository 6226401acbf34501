/** The real /usr/bin/kubectl with its own HOME (discovery cache) against a test cluster's kubeconfig. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeKubeconfig } from '../../server/apiserver/kubeconfig';

const KUBECTL = '/usr/bin/kubectl';

export interface KubectlResult { code: number; out: string; err: string }

export interface Kubectl {
  /** Runs kubectl to its end (asynchronously: an API server in this process keeps serving). */
  run(...args: string[]): Promise<KubectlResult>;
  /** Starts kubectl without a request timeout (for `get -w`); the caller stops it. */
  start(...args: string[]): ChildProcessWithoutNullStreams;
  /** Writes `text` into kubectl's HOME and returns the path (for `apply -f`). */
  file(name: string, text: string): string;
  readonly home: string;
  readonly kubeconfig: string;
  dispose(): void;
}

function makeIn(home: string, kubeconfig: string, requestTimeout: string): Kubectl {
  const env = { ...process.env, HOME: home, KUBECONFIG: kubeconfig };
  const start = (...args: string[]) => spawn(KUBECTL, ['--kubeconfig', kubeconfig, ...args], { env });
  return {
    home,
    kubeconfig,
    start,
    run: (...args) => new Promise((resolve) => {
      const p = start(`--request-timeout=${requestTimeout}`, ...args);
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

export function makeKubectl(kubeconfig: string, requestTimeout = '30s'): Kubectl {
  return makeIn(mkdtempSync(join(tmpdir(), 'kv-kubectl-home-')), kubeconfig, requestTimeout);
}

/**
 * kubectl acting with `token` against an API server (its own kubeconfig, written into its HOME).
 * `sharing` another one's HOME shares its discovery cache (kubectl as a user who may not discover).
 */
export function kubectlWithToken(server: { url: string; caPem: string }, token: string, opts: { requestTimeout?: string; sharing?: Kubectl } = {}): Kubectl {
  const home = opts.sharing?.home ?? mkdtempSync(join(tmpdir(), 'kv-kubectl-home-'));
  const kubeconfig = join(home, `kubeconfig-${createHash('sha256').update(token).digest('hex').slice(0, 12)}`);
  writeKubeconfig(kubeconfig, { server: server.url, caPem: server.caPem, token });
  return makeIn(home, kubeconfig, opts.requestTimeout ?? '20s');
}
