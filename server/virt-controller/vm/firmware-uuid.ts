/** KubeVirt's stable firmware UUID of a VM (CalculateLegacyUUID): UUIDv5 of the VM name. */
import { createHash } from 'node:crypto';

const FIRMWARE_UUID_NAMESPACE = '6a1a24a1-4061-4607-8bf4-a3963d0c5895';

export function stableFirmwareUUID(vmName: string): string {
  const ns = Buffer.from(FIRMWARE_UUID_NAMESPACE.replace(/-/g, ''), 'hex');
  const hash = createHash('sha1').update(ns).update(vmName, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const h = hash.subarray(0, 16).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
