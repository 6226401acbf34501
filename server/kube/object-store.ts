import type { KubernetesObject } from '@kubernetes/client-node';
import { keyOf } from './resources';

/** Index function: the index values an object is filed under (e.g. a pod's node name). */
export type IndexFunc<T> = (obj: T) => (string | undefined)[];

export type StoreEvent<T> =
  | { type: 'add'; obj: T }
  | { type: 'update'; old: T; obj: T }
  | { type: 'delete'; obj: T };

/**
 * The informer's cache: objects keyed `namespace/name`, with secondary indexes.
 * Pure and synchronous, so every cache rule is unit-tested without a server.
 */
export class ObjectStore<T extends KubernetesObject> {
  private readonly items = new Map<string, T>();
  private readonly indexes = new Map<string, Map<string, Set<string>>>();

  constructor(private readonly indexers: Record<string, IndexFunc<T>> = {}) {
    for (const name of Object.keys(indexers)) this.indexes.set(name, new Map());
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  list(filter?: (obj: T) => boolean): T[] {
    const all = [...this.items.values()];
    return filter ? all.filter(filter) : all;
  }

  keys(): string[] {
    return [...this.items.keys()];
  }

  get size(): number {
    return this.items.size;
  }

  byIndex(index: string, value: string): T[] {
    const idx = this.indexes.get(index);
    if (!idx) throw new Error(`unknown index ${index}`);
    return [...(idx.get(value) ?? [])].map((k) => this.items.get(k)!).filter(Boolean);
  }

  /** Add or replace; returns the event to deliver, or undefined when nothing changed (same resourceVersion). */
  upsert(obj: T): StoreEvent<T> | undefined {
    const key = keyOf(obj);
    const old = this.items.get(key);
    if (old && old.metadata?.resourceVersion === obj.metadata?.resourceVersion && old.metadata?.uid === obj.metadata?.uid) return undefined;
    if (old) this.unindex(key, old);
    this.items.set(key, obj);
    this.index(key, obj);
    return old ? { type: 'update', old, obj } : { type: 'add', obj };
  }

  /** Remove; the event carries the last known state (the watch's final object when it has one). */
  remove(obj: T): StoreEvent<T> | undefined {
    const key = keyOf(obj);
    const old = this.items.get(key);
    if (!old) return undefined;
    this.unindex(key, old);
    this.items.delete(key);
    return { type: 'delete', obj };
  }

  /** Replace everything with a fresh list (relist): deletes for the missing, adds/updates for the rest. */
  replace(objs: T[]): StoreEvent<T>[] {
    const fresh = new Set(objs.map(keyOf));
    const events: StoreEvent<T>[] = [];
    for (const [key, old] of [...this.items]) {
      if (!fresh.has(key)) events.push(this.remove(old)!);
    }
    for (const obj of objs) {
      const ev = this.upsert(obj);
      if (ev) events.push(ev);
    }
    return events;
  }

  private index(key: string, obj: T): void {
    for (const [name, fn] of Object.entries(this.indexers)) {
      const idx = this.indexes.get(name)!;
      for (const v of fn(obj)) {
        if (v === undefined) continue;
        if (!idx.has(v)) idx.set(v, new Set());
        idx.get(v)!.add(key);
      }
    }
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of Object.entries(this.indexers)) {
      const idx = this.indexes.get(name)!;
      for (const v of fn(obj)) {
        if (v === undefined) continue;
        idx.get(v)?.delete(key);
        if (idx.get(v)?.size === 0) idx.delete(v);
      }
    }
  }
}

/** Common indexers. */
export const indexByNodeName = (pod: { spec?: { nodeName?: string } }) => [pod.spec?.nodeName];
export const indexByLabel = (label: string) => (obj: KubernetesObject) => [obj.metadata?.labels?.[label]];
export const indexByOwnerUID = (obj: KubernetesObject) => (obj.metadata?.ownerReferences ?? []).map((r) => r.uid);
