/**
 * PURE: `virtctl ssh` and `virtctl scp` as KubeVirt's virtctl runs them with the local OpenSSH
 * client: `ssh -o ProxyCommand=<virtctl> port-forward --stdio=true KIND/NAME.NS PORT … [USER@]KIND/NAME.NS`.
 * scp's remote host cannot hold a `/` (scp would read it as a local path), so scp names the guest
 * `KIND.NAME.NS` and passes the real target only in the ProxyCommand.
 */
import { UsageError } from '../virtctl-error';
import { parseForwardTarget, type ForwardTarget } from './port-forward-target';

export interface SshTarget extends ForwardTarget { user?: string }

/** `[USER@]KIND/NAME[.NAMESPACE]` (a bare NAME is a VMI) */
export function parseSshTarget(arg: string): SshTarget {
  const at = arg.indexOf('@');
  const user = at >= 0 ? arg.slice(0, at) : undefined;
  if (user === '') throw new UsageError(`invalid target '${arg}': empty user name`);
  return { ...parseForwardTarget(at >= 0 ? arg.slice(at + 1) : arg), user };
}

export interface SshOptions {
  /** how the ProxyCommand runs this virtctl (argv, joined with spaces for ssh) */
  self: string[];
  namespace: string;
  port: number;
  identityFile?: string;
  knownHostsFile?: string;
  user?: string;
  localSshOpts: string[];
}

function proxyOption(t: ForwardTarget, o: SshOptions): string[] {
  const target = `${t.kind}/${t.name}.${t.namespace ?? o.namespace}`;
  return ['-o', `ProxyCommand=${[...o.self, 'port-forward', '--stdio=true', target, String(o.port)].join(' ')}`];
}

function commonOptions(o: SshOptions): string[] {
  return [
    ...(o.identityFile ? ['-i', o.identityFile] : []),
    ...(o.knownHostsFile ? ['-o', `UserKnownHostsFile=${o.knownHostsFile}`] : []),
    ...o.localSshOpts,
  ];
}

/** ssh's argv (without the program name) */
export function sshArgs(t: SshTarget, o: SshOptions, command: string | undefined): string[] {
  const user = t.user ?? o.user;
  const host = `${user ? `${user}@` : ''}${t.kind}/${t.name}.${t.namespace ?? o.namespace}`;
  return [...proxyOption(t, o), ...commonOptions(o), host, ...(command ? [command] : [])];
}

export interface ScpPath { remote?: SshTarget; path: string }

/** `[USER@]KIND/NAME[.NS]:PATH` is remote; anything else (no colon after a target) is local */
export function parseScpPath(arg: string): ScpPath {
  const m = /^((?:[^@/:]+@)?(?:[a-z]+\/)?[^/:@]+):(.*)$/i.exec(arg);
  if (!m || !m[1].includes('/')) return { path: arg };
  return { remote: parseSshTarget(m[1]), path: m[2] };
}

/** scp's argv: exactly one side remote */
export function scpArgs(src: ScpPath, dst: ScpPath, o: SshOptions, recursive: boolean): string[] {
  const remote = src.remote ?? dst.remote;
  if (!remote || (src.remote && dst.remote)) throw new UsageError('exactly one of source and destination must be a virtual machine: [USER@]TYPE/NAME[.NAMESPACE]:PATH');
  const user = remote.user ?? o.user;
  const host = `${user ? `${user}@` : ''}${remote.kind}.${remote.name}.${remote.namespace ?? o.namespace}`;
  const side = (p: ScpPath) => (p.remote ? `${host}:${p.path}` : p.path);
  return [...proxyOption(remote, o), ...commonOptions(o), '-o', `HostKeyAlias=${remote.kind}/${remote.name}.${remote.namespace ?? o.namespace}`, ...(recursive ? ['-r'] : []), side(src), side(dst)];
}
