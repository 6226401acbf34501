/**
 * The launcher's side of the pod network: when it runs in a Pod namespace with a real Pod IP, the
 * VMI's pod interface is bound with KubeVirt's masquerade or bridge binding on a tap device (plan →
 * apply → DHCP server). Without one (POD_IP unset or 127.0.0.1) QEMU keeps user networking.
 */
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Interface, LauncherVMI } from '../vmi-types';
import { deriveMac, normalizeMac } from '../converter/qemu-args-net';
import { parseResolvConf, planBinding, type BindingKind } from './binding-plan';
import { applyBinding, readPodLink } from './apply-binding';
import { startDhcpServer, type DhcpServer } from './dhcp-server';

export interface PodTap { ifaceName: string; device: string; mac: string; vhost: boolean }
export interface PodNetwork { tap: PodTap; kind: BindingKind; dhcp: DhcpServer; setupMs: number }

/** the Pod IP when the launcher has its own Pod network namespace */
export function podNetworkIP(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const ip = env.POD_IP;
  return ip && ip !== '127.0.0.1' ? ip : undefined;
}

/** PURE: the interface on the pod network (the implicit default one when the VMI names none). */
export function podInterface(vmi: LauncherVMI): Interface | undefined {
  const devices = vmi.spec.domain.devices;
  const ifaces = devices?.interfaces ?? [];
  const networks = vmi.spec.networks ?? [];
  if (ifaces.length === 0 && networks.length === 0 && devices?.autoattachPodInterface !== false) return { name: 'default', masquerade: {} };
  const pod = networks.find((n) => n.pod);
  return pod ? ifaces.find((i) => i.name === pod.name) : undefined;
}

function readResolvConf(): { nameservers: string[]; search: string[] } {
  try {
    return parseResolvConf(readFileSync('/etc/resolv.conf', 'utf8'));
  } catch {
    return { nameservers: [], search: [] };
  }
}

/**
 * `tapOwner`/`vhost`: from the QEMU user's decision (qemu-net-devices.ts): the tap belongs to the user
 * QEMU drops to, and vhost-net is used only where that user can open it.
 */
export async function setUpPodNetwork(opts: { vmi: LauncherVMI; podIP: string; launcherPorts: number[]; log: Logger; tapOwner?: { uid: number; gid: number }; vhost: boolean }): Promise<PodNetwork | undefined> {
  const started = performance.now();
  const iface = podInterface(opts.vmi);
  if (!iface) return undefined;
  const kind: BindingKind = iface.bridge ? 'bridge' : 'masquerade';
  const pod = await readPodLink(opts.podIP);
  if (!pod) throw new Error(`the Pod's eth0 does not carry ${opts.podIP}; cannot bind interface ${iface.name}`);
  const mac = (iface.macAddress ? normalizeMac(iface.macAddress) : deriveMac(opts.vmi.metadata.uid ?? opts.vmi.metadata.name, iface.name));
  const { nameservers, search } = readResolvConf();
  const plan = planBinding({
    kind, mac, pod, dns: nameservers, search, hostname: opts.vmi.spec.hostname ?? opts.vmi.metadata.name,
    ports: (iface.ports ?? []).map((p) => ({ protocol: p.protocol ?? 'TCP', port: p.port })), launcherPorts: opts.launcherPorts,
    tapOwner: opts.tapOwner,
  });
  await applyBinding(plan);
  const dhcp = await startDhcpServer({ lease: plan.lease, log: opts.log });
  const setupMs = Math.round(performance.now() - started);
  opts.log.info({ kind, podIP: opts.podIP, guestIP: plan.lease.ip, mac, setupMs, tapOwner: opts.tapOwner?.uid ?? 0, vhost: opts.vhost }, 'pod network bound');
  return { tap: { ifaceName: iface.name, device: plan.tap, mac, vhost: opts.vhost }, kind, dhcp, setupMs };
}
