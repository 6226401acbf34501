/**
 * `kv control-plane` argv → the components it runs: `kv control-plane scheduler --data-dir D
 * --and controller --data-dir D --and node --name node-1 ...`; each part is exactly the argv its
 * own `kv <command>` would get, so ps and the logs name every component and its flags.
 */

export const SEPARATOR = '--and';

/**
 * The components that may share a process, in two groups that never mix: the controllers and node
 * agents (`kv up`'s control-plane process), and the two that face users' requests (virt-api and
 * the console: both stateless, both screening untrusted input, so a crafted request that takes one
 * down cannot take a controller with it). The API server shares with nothing (docs/performance.md,
 * "Footprint").
 */
export const CONTROL_COMPONENTS = ['scheduler', 'controller', 'network', 'storage', 'node', 'handler'] as const;
export const USER_FACING_COMPONENTS = ['virt-api', 'console'] as const;
export const SHAREABLE = [...CONTROL_COMPONENTS, ...USER_FACING_COMPONENTS] as const;
export type Shareable = typeof SHAREABLE[number];

const groupOf = (command: Shareable) => ((CONTROL_COMPONENTS as readonly string[]).includes(command) ? 'control' : 'user-facing');

export interface HostedComponent { command: Shareable; argv: string[] }

/** Splits and checks the argv; bad input is a clear error naming what is wrong. */
export function parseComponents(argv: string[]): HostedComponent[] {
  const parts: string[][] = [[]];
  for (const a of argv) {
    if (a === SEPARATOR) parts.push([]);
    else parts[parts.length - 1].push(a);
  }
  if (argv.length === 0) throw new Error(`no components given (usage: kv control-plane COMMAND [FLAGS] [${SEPARATOR} COMMAND [FLAGS]]...)`);
  const hosted = parts.map(([command, ...rest], i): HostedComponent => {
    if (command === undefined) throw new Error(`component ${i + 1} is empty (two ${SEPARATOR} in a row, or one at an end)`);
    if (!(SHAREABLE as readonly string[]).includes(command)) throw new Error(`"${command}" cannot share a process; one of: ${SHAREABLE.join(', ')}`);
    return { command: command as Shareable, argv: rest };
  });
  const mixed = hosted.find((c) => groupOf(c.command) !== groupOf(hosted[0].command));
  if (mixed) {
    throw new Error(`"${mixed.command}" cannot share a process with "${hosted[0].command}": ${USER_FACING_COMPONENTS.join(' and ')} share only with each other, ${CONTROL_COMPONENTS.join(', ')} only among themselves`);
  }
  return hosted;
}

/** The argv of `kv control-plane` for these components (the inverse of parseComponents). */
export function joinComponents(parts: string[][]): string[] {
  return parts.flatMap((p, i) => (i === 0 ? p : [SEPARATOR, ...p]));
}
