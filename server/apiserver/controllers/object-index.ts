import type { KeyValue, StoreEvent } from '../store/types';

/** What the garbage collector knows of one stored object. */
export interface IndexedObject {
  key: string;
  uid: string;
  ownerUids: string[];
  deleting: boolean;
  finalizers: string[];
}

function toIndexed(key: string, value: string): IndexedObject | undefined {
  try {
    const m = JSON.parse(value).metadata ?? {};
    return {
      key, uid: m.uid ?? '',
      ownerUids: (m.ownerReferences ?? []).map((r: { uid: string }) => r.uid),
      deleting: Boolean(m.deletionTimestamp), finalizers: m.finalizers ?? [],
    };
  } catch {
    return undefined;
  }
}

/**
 * The owner graph of every object in the store: uid → object, owner uid → dependents.
 * Built from one list, then kept current from a watch of the whole registry.
 */
export class ObjectIndex {
  readonly byKey = new Map<string, IndexedObject>();
  readonly byUid = new Map<string, IndexedObject>();
  private readonly dependents = new Map<string, Set<string>>();

  /** replaces the whole index with a fresh list */
  reset(items: KeyValue[]): void {
    this.byKey.clear();
    this.byUid.clear();
    this.dependents.clear();
    for (const kv of items) this.put(kv.key, kv.value);
  }

  /** applies a store event; returns the object before and after */
  apply(e: StoreEvent): { before?: IndexedObject; after?: IndexedObject } {
    const before = this.byKey.get(e.kv.key);
    if (e.type === 'DELETED') { this.remove(e.kv.key); return { before }; }
    return { before, after: this.put(e.kv.key, e.kv.value) };
  }

  dependentsOf(uid: string): IndexedObject[] {
    return [...(this.dependents.get(uid) ?? [])].map((k) => this.byKey.get(k)).filter((o): o is IndexedObject => Boolean(o));
  }

  private put(key: string, value: string): IndexedObject | undefined {
    this.remove(key);
    const o = toIndexed(key, value);
    if (!o) return undefined;
    this.byKey.set(key, o);
    if (o.uid) this.byUid.set(o.uid, o);
    for (const u of o.ownerUids) {
      if (!this.dependents.has(u)) this.dependents.set(u, new Set());
      this.dependents.get(u)!.add(key);
    }
    return o;
  }

  private remove(key: string): void {
    const o = this.byKey.get(key);
    if (!o) return;
    this.byKey.delete(key);
    if (this.byUid.get(o.uid) === o) this.byUid.delete(o.uid);
    for (const u of o.ownerUids) {
      const set = this.dependents.get(u);
      set?.delete(key);
      if (set?.size === 0) this.dependents.delete(u);
    }
  }
}
