/**
 * A request on a kept-alive pool that is sent once more when its pooled socket was one the server
 * had just closed as idle: the reset came before the server read anything, so nothing was done
 * (Node's documented `reusedSocket` idiom). The second attempt goes on a connection of its own,
 * not through the pool: under load every idle socket of the pool may have been closed at once,
 * and a resend through it found the next dead one.
 */
import type { Agent, ClientRequest } from 'node:http';

export interface Settle<T> { resolve: (value: T) => void; reject: (reason: unknown) => void }

/**
 * `send` builds, times and ends one request on `agent` (the pool, or `false` for a fresh
 * connection) and settles with the reply; a transport error of the last attempt is passed to
 * `describe` for the caller's wording.
 */
export function requestWithIdleResend<T>(
  pool: Agent,
  send: (agent: Agent | false, settle: Settle<T>) => ClientRequest,
  describe: (err: NodeJS.ErrnoException) => unknown,
): Promise<T> {
  const attempt = (mayResend: boolean): Promise<T> => new Promise<T>((resolve, reject) => {
    const req = send(mayResend ? pool : false, { resolve, reject });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (mayResend && req.reusedSocket && err.code === 'ECONNRESET') return void attempt(false).then(resolve, reject);
      reject(describe(err));
    });
  });
  return attempt(true);
}
