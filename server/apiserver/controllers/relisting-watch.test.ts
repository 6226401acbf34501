import { expect, it } from 'vitest';
import { createMemoryStore } from '../store/memory-store';
import { waitFor } from '../testing/test-server';
import { startRelistingWatch } from './relisting-watch';

it('relists after the store drops a watcher that fell behind, and ends with the full state', async () => {
  const store = createMemoryStore({ watchBufferLimit: 5 });
  const state = new Map<string, string>();
  let lists = 0;
  const stop = startRelistingWatch(store, '/registry/', {
    onList: (items) => { lists++; state.clear(); for (const kv of items) state.set(kv.key, kv.value); },
    onEvent: (e) => { if (e.type === 'DELETED') state.delete(e.kv.key); else state.set(e.kv.key, e.kv.value); },
  });
  await Promise.all(Array.from({ length: 50 }, (_, i) => store.create(`/registry/core/configmaps/ns/c${i}`, `v${i}`)));
  await waitFor(() => lists > 1 && state.size === 50, 3000, 'relist');
  await store.delete('/registry/core/configmaps/ns/c0');
  await waitFor(() => !state.has('/registry/core/configmaps/ns/c0'), 3000, 'live event after relist');
  stop();
  store.close();
});
