import { prefixEnd } from './log-row';
import type { KeyValue } from './types';
import { searchFirst } from './search-first';

/**
 * The committed value of every live key, in memory, kept in key order (kube-apiserver's watch
 * cache plays this part): GET, LIST and counts are answered without a database query. It is
 * filled from the backend at open and changed only after a commit, in revision order, so it
 * never shows a write that is not durable.
 */
export class LatestIndex {
  private readonly byKey = new Map<string, KeyValue>();
  /** live keys, sorted */
  private keys: string[] = [];

  constructor(initial: KeyValue[]) {
    for (const kv of initial) this.byKey.set(kv.key, kv);
    this.keys = [...this.byKey.keys()].sort();
  }

  get(key: string): KeyValue | undefined {
    return this.byKey.get(key);
  }

  /** a committed write: kv is the key's new value, or undefined when it was deleted */
  apply(key: string, kv: KeyValue | undefined): void {
    const had = this.byKey.has(key);
    if (kv) this.byKey.set(key, kv);
    else this.byKey.delete(key);
    if (had === Boolean(kv)) return;
    const at = searchFirst(this.keys, (k) => k >= key);
    if (kv) this.keys.splice(at, 0, key);
    else this.keys.splice(at, 1);
  }

  /** live keys with the prefix after `startAfter`, in key order, at most `limit` */
  list(prefix: string, opts: { startAfter?: string; limit?: number } = {}): KeyValue[] {
    const from = opts.startAfter !== undefined && opts.startAfter >= prefix ? opts.startAfter : undefined;
    let i = from === undefined ? searchFirst(this.keys, (k) => k >= prefix) : searchFirst(this.keys, (k) => k > from);
    const limit = opts.limit ?? Infinity;
    const out: KeyValue[] = [];
    for (; i < this.keys.length && out.length < limit && this.keys[i].startsWith(prefix); i++) out.push(this.byKey.get(this.keys[i])!);
    return out;
  }

  count(prefix: string): number {
    const end = prefixEnd(prefix);
    return searchFirst(this.keys, (k) => k >= end) - searchFirst(this.keys, (k) => k >= prefix);
  }
}
