import { ApiException } from '@kubernetes/client-node';

/** The HTTP status of a failed API call (client-node ApiException, a watch error, or our raw requests). */
export function statusCodeOf(err: unknown): number | undefined {
  if (err instanceof ApiException) return err.code;
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; statusCode?: unknown };
  if (typeof e.statusCode === 'number') return e.statusCode;
  if (typeof e.code === 'number') return e.code;
  return undefined;
}

export const isNotFound = (err: unknown): boolean => statusCodeOf(err) === 404;
export const isConflict = (err: unknown): boolean => statusCodeOf(err) === 409;
export const isGone = (err: unknown): boolean => statusCodeOf(err) === 410;

/** What a read resolves to, or undefined when the object does not exist (404); other errors are thrown. */
export async function unlessNotFound<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** The `message` of the Kubernetes Status in an error body, else the error's own message. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiException) {
    const body: unknown = typeof err.body === 'string' ? safeParse(err.body) : err.body;
    const message = (body as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string') return message;
  }
  return err instanceof Error ? err.message : String(err);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Runs `fn` again while it fails with 409 Conflict (read-modify-write loops), like client-go's RetryOnConflict. */
export async function retryOnConflict<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (!isConflict(err) || i >= attempts) throw err;
    }
  }
}
