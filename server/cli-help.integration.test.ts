/**
 * The `kv` and `virtctl` commands behave like CLIs: `--help` on the top level and on every
 * subcommand prints usage on stdout and exits 0; `--version` prints the version; an unknown flag
 * or command is an error on stderr with a non-zero exit, never a stack trace.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { COMMANDS as VIRTCTL_COMMANDS } from './virtctl/main';

function run(bin: string, args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, KUBECONFIG: '/nonexistent' }, timeout: 30_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** the commands the user is shown: every row of `kv --help`'s command table */
const LISTED = [...run('bin/kv.mjs', ['--help']).out.split('\ncommands:\n')[1]?.matchAll(/^ {2}([a-z][a-z-]*) /gm) ?? []].map((m) => m[1]!);
/** the ones the docs and kv up rely on: the table must not lose them */
const REQUIRED = ['up', 'apiserver', 'scheduler', 'node', 'handler', 'controller', 'launcher', 'virt-api', 'console', 'virtctl', 'bundle', 'images', 'token', 'control-plane', 'defaults', 'kube-controllers', 'install-certs', 'storage', 'network', 'importer', 'hotplug-disk', 'image-upload'];
const KV_COMMANDS = [...new Set([...REQUIRED, ...LISTED])];

describe('kv', () => {
  it('kv --help and kv --version', () => {
    const help = run('bin/kv.mjs', ['--help']);
    expect(help).toMatchObject({ code: 0, err: '' });
    for (const c of REQUIRED) expect(LISTED).toContain(c);
    expect(run('bin/kv.mjs', ['--version'])).toMatchObject({ code: 0, out: expect.stringMatching(/^kv v\d+\.\d+\.\d+\n$/) });
  });

  it.each(KV_COMMANDS)('kv %s --help prints usage and exits 0', (c) => {
    const r = run('bin/kv.mjs', [c, '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/usage/i);
    expect(r.err).toBe('');
  });

  it('kv up --help documents --bare', () => {
    expect(run('bin/kv.mjs', ['up', '--help']).out).toMatch(/--bare: a bare Kubernetes only/);
  });

  it('an unknown flag or command: a message and the usage on stderr, exit 2, no stack trace', () => {
    const flag = run('bin/kv.mjs', ['apiserver', '--bogus']);
    expect(flag).toMatchObject({ code: 2, out: '' });
    expect(flag.err).toMatch(/^kv apiserver: Unknown option '--bogus'\nusage: kv apiserver/);
    const up = run('bin/kv.mjs', ['up', '--bogus']);
    expect(up.code).toBe(2);
    expect(up.err).not.toMatch(/\n\s+at /);
    expect(run('bin/kv.mjs', ['frobnicate'])).toMatchObject({ code: 2, out: '' });
    // only the controllers and node agents, or virt-api and the console, may share a process; naming another is the user's mistake
    const shared = run('bin/kv.mjs', ['control-plane', 'scheduler', '--and', 'apiserver', '--port', '1']);
    expect(shared).toMatchObject({ code: 2, out: '', err: 'kv control-plane: "apiserver" cannot share a process; one of: scheduler, controller, network, storage, node, handler, virt-api, console\n' });
    // and the two groups do not mix
    const mixed = run('bin/kv.mjs', ['control-plane', 'scheduler', '--and', 'console']);
    expect(mixed).toMatchObject({ code: 2, out: '', err: expect.stringContaining('"console" cannot share a process with "scheduler": virt-api and console share only with each other') });
    expect(mixed.err).not.toMatch(/\n\s+at /);
    const ttl = run('bin/kv.mjs', ['console', 'login-link', '--ttl', '5x']);
    expect(ttl).toMatchObject({ code: 2, out: '' });
    expect(ttl.err).toMatch(/^kv console login-link: --ttl must be a duration .*\nusage: kv console login-link/);
  });
});

describe('virtctl', () => {
  it.each(Object.keys(VIRTCTL_COMMANDS))('virtctl %s --help prints usage and exits 0', (c) => {
    const r = run('bin/virtctl.mjs', [c, '--help']);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toContain(`Usage:\n  virtctl ${c}`);
  });

  it('virtctl --help lists every command; a command without a kubeconfig says so', () => {
    const help = run('bin/virtctl.mjs', ['--help']);
    expect(help.code).toBe(0);
    for (const c of Object.keys(VIRTCTL_COMMANDS)) expect(help.out).toContain(`  ${c}`);
    const noConfig = run('bin/virtctl.mjs', ['start', 'demo', '--kubeconfig', '/nonexistent/kubeconfig']);
    expect(noConfig.code).toBe(1);
    expect(noConfig.err).toMatch(/^cannot obtain KubeVirt client: /);
  });
});
