/** Firmware UUIDs: KubeVirt's stable UUIDv5 of a VM name (CalculateLegacyUUID) and random ones. */
import { createHash, randomUUID } from 'node:crypto';

/** KubeVirt's namespace UUID for firmware UUIDs derived from VM names (unchanged since v0.x). */
export const FIRMWARE_UUID_NAMESPACE = '6a1a24a1-4061-4607-8bf4-a3963d0c5895';

/** RFC 4122 version-5 (SHA-1) UUID of `name` in `namespace`. */
export function uuidV5(name: string, namespace: string = FIRMWARE_UUID_NAMESPACE): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(ns).update(name, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const h = hash.subarray(0, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The stable firmware UUID KubeVirt gives VMIs of a VM that has none. */
export function stableFirmwareUUID(vmName: string): string {
  return uuidV5(vmName);
}

export function randomFirmwareUUID(): string {
  return randomUUID();
}

/** A random firmware serial (KubeVirt uses a random UUID string). */
export function randomFirmwareSerial(): string {
  return randomUUID();
}
