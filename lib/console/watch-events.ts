/**
 * The live-data contract between the custom server's watch socket and the browser, and the pure
 * merge of one watch event into a cached list (headlamp's applyWatchEvent).
 */
import type { KubeObject } from '../kubevirt';

/** What the query cache holds for a watched collection. */
export interface ObjectList<T extends KubeObject = KubeObject> {
  resourceVersion: string;
  items: T[];
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

export interface WatchEvent<T extends KubeObject = KubeObject> {
  type: WatchEventType;
  object: T;
}

/** Browser → server on /ws/watch. */
export type WatchRequest =
  | { op: 'subscribe'; id: string; path: string; labelSelector?: string; fieldSelector?: string }
  | { op: 'unsubscribe'; id: string };

/** Server → browser on /ws/watch: a full list (first, and after every relist), events, errors. */
export type WatchMessage =
  | { id: string; kind: 'list'; list: ObjectList }
  | { id: string; kind: 'event'; event: WatchEvent }
  | { id: string; kind: 'error'; code: number; message: string };

/** `-1` a < b, `0` equal, `1` a > b, `undefined` when either is not a decimal revision. */
export function compareResourceVersions(a: string | undefined, b: string | undefined): number | undefined {
  if (!a || !b || !/^\d+$/.test(a) || !/^\d+$/.test(b)) return undefined;
  const [x, y] = [BigInt(a), BigInt(b)];
  return x === y ? 0 : x < y ? -1 : 1;
}

const keyOf = (o: KubeObject) => o.metadata.uid ?? `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

/** True when `incoming` is not newer than what we already hold (a replayed or reordered event). */
function isStale(held: KubeObject | undefined, incoming: KubeObject): boolean {
  const cmp = compareResourceVersions(incoming.metadata.resourceVersion, held?.metadata.resourceVersion);
  return cmp !== undefined && cmp <= 0;
}

/**
 * The list after one watch event; the same list object when the event changes nothing (stale,
 * a bookmark, a delete of something we do not hold), so React skips a render.
 */
export function applyWatchEvent<T extends KubeObject>(list: ObjectList<T>, event: WatchEvent<T>): ObjectList<T> {
  const rv = event.object.metadata?.resourceVersion;
  const newerRV = compareResourceVersions(rv, list.resourceVersion) === 1 ? rv! : list.resourceVersion;
  if (event.type === 'BOOKMARK') return newerRV === list.resourceVersion ? list : { ...list, resourceVersion: newerRV };
  const key = keyOf(event.object);
  const index = list.items.findIndex((o) => keyOf(o) === key);
  const held = index >= 0 ? list.items[index] : undefined;
  if (event.type === 'DELETED') {
    if (!held || compareResourceVersions(rv, held.metadata.resourceVersion) === -1) return list;
    return { resourceVersion: newerRV, items: list.items.filter((_, i) => i !== index) };
  }
  if (held && isStale(held, event.object)) return list;
  if (!held && compareResourceVersions(rv, list.resourceVersion) !== undefined && compareResourceVersions(rv, list.resourceVersion)! <= 0) {
    return list; // an ADDED/MODIFIED older than the list itself: the list already saw what followed
  }
  const items = held ? list.items.map((o, i) => (i === index ? event.object : o)) : [...list.items, event.object];
  return { resourceVersion: newerRV, items };
}
