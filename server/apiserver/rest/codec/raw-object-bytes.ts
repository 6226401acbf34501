import type { KeyValue } from '../../store/types';
import { groupVersion, type ResourceType, type StorageMapping } from '../types/resource-type';
import { rawObject } from './object-codec';

type RawType = Pick<ResourceType, 'group' | 'version' | 'kind'> & { storedAs?: StorageMapping };

/**
 * The UTF-8 bytes of each stored value as a client sees it (rawObject), kept beside the store's
 * own KeyValue. A KeyValue never changes (a write makes a new one), so the bytes stay right for
 * as long as the store holds it, and go with it. Only the text served as stored is kept: it is
 * the same for every served type whose apiVersion and kind the stored text starts with.
 */
const bytesOf = new WeakMap<KeyValue, Buffer>();

/**
 * An encoder for one served type: kv → the object's bytes. A LIST of 1000 objects then copies
 * bytes encoded once per write instead of building and encoding a 500 KB string every time.
 */
export function rawObjectEncoder(rt: RawType): (kv: KeyValue) => Buffer {
  const prefix = `{"apiVersion":${JSON.stringify(groupVersion(rt))},"kind":${JSON.stringify(rt.kind)},"metadata":{"`;
  return (kv) => {
    const servedAsStored = kv.value.startsWith(prefix);
    const cached = servedAsStored ? bytesOf.get(kv) : undefined;
    if (cached) return cached;
    const bytes = Buffer.from(rawObject(rt, kv));
    if (servedAsStored) bytesOf.set(kv, bytes);
    return bytes;
  };
}

const COMMA = Buffer.from(',');

/** a List body as one buffer: head (up to and including `"items":[`), the objects comma-separated, `]}` */
export function rawListBytes(head: string, items: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from(head)];
  items.forEach((b, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(b);
  });
  parts.push(Buffer.from(']}'));
  return Buffer.concat(parts);
}
