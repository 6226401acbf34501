/**
 * PURE: status.interfaces and status.guestOSInfo from the launcher's domain view (masquerade
 * address, MAC) merged with what the guest agent reports (KubeVirt's infoSource semantics).
 */
import type { VirtualMachineInstance, VMIInterfaceStatus } from '../../lib/kubevirt';
import type { DomainStatus, GuestInfo } from '../virt-launcher/protocol';

const SOURCE_DOMAIN = 'domain';
const SOURCE_AGENT = 'guest-agent';

type AgentInterface = NonNullable<GuestInfo['interfaces']>[number];

function findAgentInterface(guest: GuestInfo | undefined, mac: string | undefined): AgentInterface | undefined {
  if (!mac || !guest?.interfaces) return undefined;
  return guest.interfaces.find((i) => i.mac?.toLowerCase() === mac.toLowerCase());
}

/** masquerade (also the implicit default interface): the guest's own 10.0.2.2 is private to its Pod, the Pod IP is what others reach */
function isMasquerade(vmi: VirtualMachineInstance, name: string): boolean {
  const declared = vmi.spec.domain.devices?.interfaces ?? [];
  return declared.length === 0 || declared.some((i) => i.name === name && i.masquerade);
}

export function computeInterfaces(vmi: VirtualMachineInstance, domain: DomainStatus | undefined, guest: GuestInfo | undefined): VMIInterfaceStatus[] {
  const declared = vmi.spec.domain.devices?.interfaces ?? [];
  return (domain?.interfaces ?? []).map((d) => {
    const agent = findAgentInterface(guest, d.mac);
    const agentIPs = agent?.ipAddresses.filter((ip) => !ip.startsWith('fe80:')) ?? [];
    const ipAddresses = agentIPs.length && !isMasquerade(vmi, d.name) ? agentIPs : [d.ipAddress];
    const out: VMIInterfaceStatus = {
      name: d.name,
      mac: d.mac,
      ipAddress: ipAddresses[0],
      ipAddresses,
      infoSource: agent ? `${SOURCE_DOMAIN}, ${SOURCE_AGENT}` : SOURCE_DOMAIN,
      podInterfaceName: 'eth0',
    };
    if (agent) out.interfaceName = agent.name;
    if (declared.some((i) => i.name === d.name && i.state === 'down')) out.linkState = 'down';
    else out.linkState = 'up';
    return out;
  });
}

export function computeGuestOSInfo(guest: GuestInfo | undefined): Record<string, string> | undefined {
  const os = guest?.connected ? guest.os : undefined;
  if (!os) return undefined;
  const entries = Object.entries(os).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '');
  return entries.length ? Object.fromEntries(entries) : undefined;
}
