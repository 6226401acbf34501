/**
 * Open watches per identity: a user (or service account) may hold at most `limit` at once; one
 * more is refused with 429 and Retry-After, as kube-apiserver's flow control answers a client that
 * exceeds its share, so one identity cannot exhaust the server's sockets and memory. Members of
 * system:masters are not counted (the cluster's own admin and the embedded components' supervisors).
 */
import type { User } from '../api-context';

export const DEFAULT_WATCHES_PER_USER = 256;
export const TOO_MANY_WATCHES_MESSAGE = 'Too many requests, please try again later.';

export class WatchLimits {
  private readonly open = new Map<string, number>();

  constructor(readonly limit = DEFAULT_WATCHES_PER_USER) {}

  /** a release function, or undefined when the user already holds `limit` watches */
  acquire(user: User): (() => void) | undefined {
    if (user.groups.includes('system:masters')) return () => undefined;
    const held = this.open.get(user.username) ?? 0;
    if (held >= this.limit) return undefined;
    this.open.set(user.username, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (this.open.get(user.username) ?? 1) - 1;
      if (n <= 0) this.open.delete(user.username);
      else this.open.set(user.username, n);
    };
  }

  heldBy(username: string): number {
    return this.open.get(username) ?? 0;
  }
}

const perServer = new WeakMap<object, WatchLimits>();

/** the limits of one API server (keyed by its context) */
export function watchLimitsOf(ctx: object): WatchLimits {
  let l = perServer.get(ctx);
  if (!l) {
    const fromEnv = Number(process.env.KV_MAX_WATCHES_PER_USER);
    l = new WatchLimits(Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_WATCHES_PER_USER);
    perServer.set(ctx, l);
  }
  return l;
}
