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
