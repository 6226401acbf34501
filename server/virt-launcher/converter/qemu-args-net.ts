/**
 * interfaces[] on the pod network → QEMU's NIC and its backend. With a Pod network namespace the
 * launcher has bound the interface to a tap (network/pod-binding.ts): `-netdev tap`. Without one,
 * QEMU user networking shaped like KubeVirt's masquerade binding: guest 10.0.2.2, gateway 10.0.2.1,
 * DNS 10.0.2.3, the guest's declared ports forwarded from 127.0.0.1:<host port>.
 */
import { createHash } from 'node:crypto';
import type { ArgsPart, ConverterInput } from './converter-types';
import type { HostPort } from '../protocol';
import type { Interface } from '../vmi-types';
import { CONVERTER_REASONS, ConverterError, invalid } from './converter-error';
import { checkName, renderJson, userAlias } from './qemu-opts';

export const GUEST_NETWORK = { cidr: '10.0.2.0/24', gateway: '10.0.2.1', guest: '10.0.2.2', dns: '10.0.2.3' } as const;

const MODELS: Record<string, string> = {
  virtio: 'virtio-net-pci', e1000: 'e1000', e1000e: 'e1000e', rtl8139: 'rtl8139', ne2k_pci: 'ne2k_pci', pcnet: 'pcnet',
};
const MAC = /^[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}$/;
const DEFAULT_INTERFACE: Interface = { name: 'default', masquerade: {} };

/** A stable, locally administered unicast MAC for the interface (same on a migration target). */
export function deriveMac(vmiUID: string, name: string): string {
  const h = createHash('sha256').update(`${vmiUID}/${name}`).digest();
  return ['02', ...[...h.subarray(0, 5)].map((b) => b.toString(16).padStart(2, '0'))].join(':');
}

/** aa-bb-.. and aabb.ccdd.eeff (accepted by admission, as Go's net.ParseMAC) → aa:bb:cc:dd:ee:ff */
export function normalizeMac(mac: string): string {
  const hex = mac.replace(/[-.:]/g, '');
  return /^[0-9a-fA-F]{12}$/.test(hex) ? hex.toLowerCase().match(/../g)!.join(':') : mac;
}

function checkMac(raw: string, field: string): string {
  const mac = normalizeMac(raw);
  if (!MAC.test(mac) || (parseInt(mac.slice(0, 2), 16) & 1) === 1) throw invalid(`${field}: ${JSON.stringify(mac)} is not a unicast MAC address`);
  return mac.toLowerCase();
}

function listInterfaces(input: ConverterInput): Interface[] {
  const ifaces = input.vmi.spec.domain.devices?.interfaces ?? [];
  const networks = input.vmi.spec.networks ?? [];
  if (ifaces.length === 0 && networks.length === 0 && input.vmi.spec.domain.devices?.autoattachPodInterface !== false) {
    return [DEFAULT_INTERFACE];
  }
  return ifaces;
}

function renderPorts(input: ConverterInput, iface: Interface, i: number): { hostfwd: { str: string }[]; hostPorts: HostPort[] } {
  const hostfwd: { str: string }[] = [];
  const hostPorts: HostPort[] = [];
  for (const [j, p] of (iface.ports ?? []).entries()) {
    const protocol = p.protocol ?? 'TCP';
    if (!Number.isInteger(p.port) || p.port < 1 || p.port > 65535) throw invalid(`spec.domain.devices.interfaces[${i}].ports[${j}].port: must be 1-65535`);
    if (protocol !== 'TCP' && protocol !== 'UDP') throw invalid(`spec.domain.devices.interfaces[${i}].ports[${j}].protocol: must be TCP or UDP`);
    // on the pod network the declared port answers on the Pod IP too, as KubeVirt's masquerade DNAT does
    if (input.podIP) hostfwd.push({ str: `${protocol.toLowerCase()}:${input.podIP}:${p.port}-${GUEST_NETWORK.guest}:${p.port}` });
    const hostPort = input.allocateHostPort?.({ protocol, port: p.port });
    if (hostPort === undefined) continue;
    hostfwd.push({ str: `${protocol.toLowerCase()}:127.0.0.1:${hostPort}-${GUEST_NETWORK.guest}:${p.port}` });
    hostPorts.push({ name: p.name, protocol, guestPort: p.port, hostPort });
  }
  return { hostfwd, hostPorts };
}

/** the tap the launcher bound (pod network), else QEMU user networking with its port forwards */
function renderBackend(input: ConverterInput, iface: Interface, i: number): { netdev: string; hostPorts: HostPort[] } {
  const id = `net-${iface.name}`;
  const tap = input.podTap?.ifaceName === iface.name ? input.podTap : undefined;
  if (tap) return { netdev: renderJson({ type: 'tap', id, ifname: tap.device, script: 'no', downscript: 'no', vhost: tap.vhost }), hostPorts: [] };
  const { hostfwd, hostPorts } = renderPorts(input, iface, i);
  const netdev = renderJson({
    type: 'user', id, net: GUEST_NETWORK.cidr, host: GUEST_NETWORK.gateway, dhcpstart: GUEST_NETWORK.guest,
    dns: GUEST_NETWORK.dns, hostname: input.vmi.spec.hostname ?? input.vmi.metadata.name, hostfwd: hostfwd.length ? hostfwd : undefined,
  });
  return { netdev, hostPorts };
}

export interface NetPart extends ArgsPart { hostPorts: HostPort[]; interfaces: { name: string; mac: string; ipAddress: string }[] }

export function renderNetArgs(input: ConverterInput): NetPart {
  const out: NetPart = { args: [], hostPorts: [], interfaces: [] };
  for (const [i, iface] of listInterfaces(input).entries()) {
    const field = `spec.domain.devices.interfaces[${i}]`;
    const name = checkName(iface.name, `${field}.name`);
    const network = (input.vmi.spec.networks ?? []).find((n) => n.name === name) ?? (iface === DEFAULT_INTERFACE ? { name, pod: {} } : undefined);
    if (!network) throw invalid(`${field}.name '${name}' not found.`);
    if (!network.pod) throw new ConverterError(CONVERTER_REASONS.unsupported, `spec.networks[${name}]: only the pod network is supported`);
    const driver = MODELS[iface.model ?? 'virtio'];
    if (!driver) throw invalid(`${field}.model: unsupported model ${JSON.stringify(iface.model)}`);
    const mac = iface.macAddress ? checkMac(iface.macAddress, `${field}.macAddress`) : deriveMac(input.vmi.metadata.uid ?? input.vmi.metadata.name, name);
    const { netdev, hostPorts } = renderBackend(input, iface, i);
    out.args.push('-netdev', netdev);
    out.args.push('-device', renderJson({
      driver, id: userAlias(name), netdev: `net-${name}`, mac, bootindex: iface.bootOrder,
      romfile: iface.bootOrder === undefined ? '' : undefined,
    }));
    out.hostPorts.push(...hostPorts);
    // masquerade and bridge both report the Pod IP, as KubeVirt does
    out.interfaces.push({ name, mac, ipAddress: input.podIP ?? GUEST_NETWORK.guest });
  }
  return out;
}
