import { run, tryRun } from '../node/network/ip-command';

/**
 * A link that only carries addresses and routes: `type dummy`, or where the kernel has no dummy
 * driver (some VM kernels) a bridge without ports, which serves the same purpose. Brought up.
 */
export function ensureHostLink(name: string): void {
  if (!run('ip', ['-o', 'link', 'show']).includes(` ${name}:`)) {
    if (!tryRun('ip', ['link', 'add', name, 'type', 'dummy'])) run('ip', ['link', 'add', name, 'type', 'bridge']);
  }
  run('ip', ['link', 'set', name, 'up']);
}

/** `address`/32 on the link `name` (made if missing), so Pods reach the host there through their gateway. */
export function ensureHostAddress(name: string, address: string): void {
  ensureHostLink(name);
  if (!run('ip', ['-o', 'addr', 'show', 'dev', name]).includes(` ${address}/`)) run('ip', ['addr', 'add', `${address}/32`, 'dev', name]);
}

/** deletes the link and the addresses on it; nothing when it is gone */
export function removeHostLink(name: string): void {
  tryRun('ip', ['link', 'del', name]);
}
