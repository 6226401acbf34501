/**
 * `kv control-plane` argv → the components it runs: `kv control-plane scheduler --data-dir D
 * --and controller --data-dir D --and node --name node-1 ...`; each part is exactly the argv its
 * own `kv <command>` would get, so ps and the logs name every component and its flags.
 */

export const SEPARATOR = '--and';

/**
 * The components that may share a process. The API server and virt-api are not among them: they
 * face untrusted input (docs/performance.md, "Footprint"), and the console is a Next.js server of
 * its own.
 */
export const SHAREABLE = ['scheduler', 'controller', 'network', 'storage', 'node', 'handler'] as const;
export type Shareable = typeof SHAREABLE[number];

export interface HostedComponent { command: Shareable; argv: string[] }

/** Splits and checks the argv; bad input is a clear error naming what is wrong. */
export function parseComponents(argv: string[]): HostedComponent[] {
  const parts: string[][] = [[]];
  for (const a of argv) {
    if (a === SEPARATOR) parts.push([]);
    else parts[parts.length - 1].push(a);
  }
  if (argv.length === 0) throw new Error(`no components given (usage: kv control-plane COMMAND [FLAGS] [${SEPARATOR} COMMAND [FLAGS]]...)`);
  return parts.map(([command, ...rest], i) => {
    if (command === undefined) throw new Error(`component ${i + 1} is empty (two ${SEPARATOR} in a row, or one at an end)`);
    if (!(SHAREABLE as readonly string[]).includes(command)) throw new Error(`"${command}" cannot share a process; one of: ${SHAREABLE.join(', ')}`);
    return { command: command as Shareable, argv: rest };
  });
}

/** The argv of `kv control-plane` for these components (the inverse of parseComponents). */
export function joinComponents(parts: string[][]): string[] {
  return parts.flatMap((p, i) => (i === 0 ? p : [SEPARATOR, ...p]));
}
