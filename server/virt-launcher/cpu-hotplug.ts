/**
 * Hot-added vCPUs on a running domain (KubeVirt's CPU hotplug, done by libvirt there): QEMU booted
 * with `maxcpus` above `cpus` lists the empty slots in `query-hotpluggable-cpus`; every slot of a
 * socket below the wanted count gets a `device_add` of the CPU type QEMU names. Level-triggered:
 * `setSockets(n)` twice plugs nothing the second time. Sockets are never removed (KubeVirt asks
 * for a restart to go down).
 */
import type { QmpClient } from './qmp-client';
import { hotplugCpuId } from './converter/qemu-args-compute';

interface HotpluggableCPU {
  type: string;
  'vcpus-count': number;
  props: Record<string, number>;
  /** present when the slot holds a CPU */
  'qom-path'?: string;
}

interface FastCPU { 'cpu-index': number; props?: Record<string, number> }

export interface CPUTopologyNow { sockets: number; vcpus: number }

export class CPUHotplugError extends Error {}

const slotId = (p: Record<string, number>) => hotplugCpuId(p['socket-id'] ?? 0, p['core-id'] ?? 0, p['thread-id'] ?? 0);
const order = (a: HotpluggableCPU, b: HotpluggableCPU) =>
  (a.props['socket-id'] ?? 0) - (b.props['socket-id'] ?? 0) || (a.props['core-id'] ?? 0) - (b.props['core-id'] ?? 0) || (a.props['thread-id'] ?? 0) - (b.props['thread-id'] ?? 0);

/** The sockets and vCPUs the guest has now (query-cpus-fast). */
export async function currentCPUs(qmp: QmpClient): Promise<CPUTopologyNow> {
  const cpus = await qmp.execute<FastCPU[]>('query-cpus-fast');
  return { sockets: new Set(cpus.map((c) => c.props?.['socket-id'] ?? 0)).size, vcpus: cpus.length };
}

/** Plugs every empty slot of sockets 0..sockets-1; refuses to go above QEMU's maximum or to unplug. */
export async function setSockets(qmp: QmpClient, sockets: number): Promise<CPUTopologyNow> {
  if (!Number.isInteger(sockets) || sockets < 1) throw new CPUHotplugError(`sockets must be a positive integer, not ${sockets}`);
  const slots = (await qmp.execute<HotpluggableCPU[]>('query-hotpluggable-cpus')).sort(order);
  const max = new Set(slots.map((s) => s.props['socket-id'] ?? 0)).size;
  if (sockets > max) throw new CPUHotplugError(`the domain was started with room for ${max} sockets, ${sockets} requested`);
  const now = await currentCPUs(qmp);
  if (sockets < now.sockets) throw new CPUHotplugError(`CPU hot-unplug is not supported: the domain has ${now.sockets} sockets, ${sockets} requested`);
  for (const slot of slots) {
    if (slot['qom-path'] || (slot.props['socket-id'] ?? 0) >= sockets) continue;
    await qmp.execute('device_add', { driver: slot.type, id: slotId(slot.props), ...slot.props });
  }
  return currentCPUs(qmp);
}
