/**
 * Guest memory on a running domain through its virtio-mem device (KubeVirt's memory hotplug, done
 * by libvirt's device update there): `requested-size` is what the host asks the guest to plug;
 * `size` is what the guest's virtio_mem driver has plugged so far (it follows asynchronously).
 */
import type { QmpClient } from './qmp-client';
import { VIRTIO_MEM_ID } from '../../lib/kubevirt/memory-hotplug';

export class MemoryHotplugError extends Error {}

interface MemoryDevice { type: string; data: { id?: string; size: number; 'requested-size'?: number; 'max-size'?: number; 'block-size'?: number } }

export interface GuestMemoryNow {
  /** boot memory + what the guest plugged (KubeVirt's status.memory.guestCurrent) */
  currentBytes: number;
  /** boot memory + the device's requested size */
  requestedBytes: number;
  /** boot memory + the device's region (maxGuest) */
  maxBytes: number;
}

async function virtioMem(qmp: QmpClient): Promise<MemoryDevice['data']> {
  const devices = await qmp.execute<MemoryDevice[]>('query-memory-devices');
  const dev = devices.find((d) => d.type === 'virtio-mem' && d.data.id === VIRTIO_MEM_ID);
  if (!dev) throw new MemoryHotplugError('the domain was started without a virtio-mem device (no memory.maxGuest)');
  return dev.data;
}

async function bootBytes(qmp: QmpClient): Promise<number> {
  const summary = await qmp.execute<{ 'base-memory': number }>('query-memory-size-summary');
  return summary['base-memory'];
}

export async function currentGuestMemory(qmp: QmpClient): Promise<GuestMemoryNow> {
  const [dev, boot] = await Promise.all([virtioMem(qmp), bootBytes(qmp)]);
  return { currentBytes: boot + dev.size, requestedBytes: boot + (dev['requested-size'] ?? 0), maxBytes: boot + (dev['max-size'] ?? 0) };
}

/** Asks the guest for `guestBytes` in all: boot memory plus a requested size within the region, block-aligned. */
export async function setGuestMemory(qmp: QmpClient, guestBytes: number): Promise<GuestMemoryNow> {
  if (!Number.isSafeInteger(guestBytes) || guestBytes <= 0) throw new MemoryHotplugError(`guest memory must be a positive number of bytes, not ${guestBytes}`);
  const [dev, boot] = await Promise.all([virtioMem(qmp), bootBytes(qmp)]);
  const requested = guestBytes - boot;
  const max = dev['max-size'] ?? 0;
  if (requested < 0) throw new MemoryHotplugError(`the domain booted with ${boot} bytes, ${guestBytes} requested: less needs a restart`);
  if (requested > max) throw new MemoryHotplugError(`the domain was started with room for ${boot + max} bytes, ${guestBytes} requested`);
  const block = dev['block-size'] ?? 1;
  if (requested % block !== 0) throw new MemoryHotplugError(`${guestBytes} bytes is not a multiple of the virtio-mem block size ${block}`);
  await qmp.execute('qom-set', { path: `/machine/peripheral/${VIRTIO_MEM_ID}`, property: 'requested-size', value: requested });
  return currentGuestMemory(qmp);
}
