/**
 * `virtctl ssh [USER@]TYPE/NAME[.NS] [-i FILE] [-l USER] [-p PORT] [-c COMMAND] [--known-hosts FILE]
 * [--local-ssh-opts OPT]...` and `virtctl scp [-r] SRC DST`: the local OpenSSH client with
 * this virtctl's `port-forward --stdio` as its ProxyCommand (KubeVirt's --local-ssh mode), so the
 * guest's port 22 is reached through the API server and virt-api, never over a direct route.
 * A failing ssh or scp ends virtctl with `exit status N`, as KubeVirt's does.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadClientConfig } from '../client-config';
import { intFlag, parseFlags, type Parsed } from '../flags';
import { UsageError, VirtctlError } from '../virtctl-error';
import type { Output } from '../output';
import { parseScpPath, parseSshTarget, scpArgs, sshArgs, type SshOptions } from './ssh-args';

const VIRTCTL_SCRIPT = fileURLToPath(new URL('../../../bin/virtctl.mjs', import.meta.url));

const COMMON_FLAGS = {
  'identity-file': { type: 'string', short: 'i' },
  username: { type: 'string', short: 'l' },
  port: { type: 'string', short: 'p' },
  'known-hosts': { type: 'string' },
  'local-ssh-opts': { type: 'string', multiple: true },
  'local-ssh': { type: 'boolean' },
} as const;

function options(p: Parsed, namespace: string): SshOptions {
  const g = p.global;
  const self = [process.execPath, VIRTCTL_SCRIPT, ...(g.kubeconfig ? ['--kubeconfig', g.kubeconfig] : []), ...(g.context ? ['--context', g.context] : [])];
  const port = intFlag(p.values, 'port') ?? 22;
  if (port < 1 || port > 65535) throw new UsageError(`invalid port ${port}`);
  const str = (k: string) => (typeof p.values[k] === 'string' ? (p.values[k] as string) : undefined);
  return { self, namespace, port, identityFile: str('identity-file'), knownHostsFile: str('known-hosts'), user: str('username'), localSshOpts: p.lists['local-ssh-opts'] ?? [] };
}

function run(program: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: 'inherit' });
    child.on('error', (err: NodeJS.ErrnoException) => reject(new VirtctlError(err.code === 'ENOENT' ? `${program} not found: install the OpenSSH client (Debian: apt-get install openssh-client)` : err.message)));
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** as virtctl: a failed ssh is `exit status N` on stderr and exit code 1 (ssh printed its own reason) */
async function exitWith(code: number): Promise<void> {
  if (code !== 0) throw new VirtctlError(`exit status ${code}`);
}

export async function sshCommand(argv: string[], _out: Output): Promise<void> {
  const p = parseFlags(argv, { ...COMMON_FLAGS, command: { type: 'string', short: 'c' } });
  if (p.positionals.length !== 1) throw new UsageError(`accepts 1 arg(s), received ${p.positionals.length}`);
  const target = parseSshTarget(p.positionals[0]);
  const { namespace } = loadClientConfig({ ...p.global, namespace: target.namespace ?? p.global.namespace });
  const command = typeof p.values.command === 'string' ? p.values.command : undefined;
  await exitWith(await run('ssh', sshArgs(target, options(p, namespace), command)));
}

export async function scpCommand(argv: string[], _out: Output): Promise<void> {
  const p = parseFlags(argv, { ...COMMON_FLAGS, recursive: { type: 'boolean', short: 'r' } });
  if (p.positionals.length !== 2) throw new UsageError(`accepts 2 arg(s), received ${p.positionals.length}`);
  const [src, dst] = p.positionals.map(parseScpPath);
  const remote = src.remote ?? dst.remote;
  const { namespace } = loadClientConfig({ ...p.global, namespace: remote?.namespace ?? p.global.namespace });
  await exitWith(await run('scp', scpArgs(src, dst, options(p, namespace), p.values.recursive === true)));
}
