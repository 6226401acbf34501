import type { KeyValue, Store, StoreEvent } from '../store/types';

export interface RelistingWatchHandlers {
  /** the full state under the prefix: at start and again whenever the watch was dropped */
  onList: (items: KeyValue[]) => void;
  onEvent: (e: StoreEvent) => void;
  onDropped?: () => void;
}

/**
 * A store list + watch that relists and watches again when the store drops it (a slow
 * consumer), like an informer does on 410. Returns the function that stops it.
 */
export function startRelistingWatch(store: Store, prefix: string, h: RelistingWatchHandlers): () => void {
  let abort = new AbortController();
  let stopped = false;
  const start = () => {
    if (stopped) return;
    abort = new AbortController();
    const page = store.list(prefix);
    h.onList(page.items);
    store.watch(prefix, {
      afterRevision: page.revision, signal: abort.signal, onEvent: h.onEvent,
      onDropped: () => { h.onDropped?.(); setImmediate(start); },
    });
  };
  start();
  return () => { stopped = true; abort.abort(); };
}
