import type { Store, StoreEvent, WatchOptions } from './types';

/** Test helper: a watch that records events, with a bounded wait for a condition. */
export interface WatchRecorder {
  events: StoreEvent[];
  dropped: boolean;
  /** "TYPE key@rev" lines, the easiest shape to compare */
  lines(): string[];
  waitFor(cond: () => boolean, timeoutMs?: number): Promise<void>;
  stop(): void;
}

export async function waitForCondition(cond: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

export function recordWatch(
  store: Store,
  prefix: string,
  opts: Partial<Pick<WatchOptions, 'afterRevision' | 'onEvent'>> = {},
): WatchRecorder {
  const ac = new AbortController();
  const rec: WatchRecorder = {
    events: [],
    dropped: false,
    lines: () => rec.events.map((e) => `${e.type} ${e.kv.key}@${e.kv.modRevision}`),
    waitFor: waitForCondition,
    stop: () => ac.abort(),
  };
  store.watch(prefix, {
    afterRevision: opts.afterRevision ?? 0,
    signal: ac.signal,
    onEvent: (e) => {
      rec.events.push(e);
      return opts.onEvent?.(e);
    },
    onDropped: () => {
      rec.dropped = true;
    },
  });
  return rec;
}
