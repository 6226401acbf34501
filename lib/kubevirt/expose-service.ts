/**
 * The Service `virtctl expose` and the console's Expose action create, as a pure function: ports from the flags or, without
 * --port, from the pod-network interface's declared ports; the selector is the launcher Pod's
 * `vmi.kubevirt.io/id` label; the VM/VMI owns the Service.
 */
import type { V1Service, V1ServicePort } from '@kubernetes/client-node';
import { Label } from './labels';
import type { VirtualMachineInstanceSpec } from './vmi-spec-types';

/** the request cannot become a Service (its message is virtctl's) */
export class ExposeError extends Error {}

export interface ExposeFlags {
  name: string;
  port?: number;
  targetPort?: string;
  protocol: string;
  type: string;
  portName?: string;
  clusterIP?: string;
  externalIP?: string;
}

export interface ExposeOwner {
  kind: 'VirtualMachine' | 'VirtualMachineInstance';
  name: string;
  uid: string;
  spec: VirtualMachineInstanceSpec | undefined;
}

const PROTOCOLS: Record<string, 'TCP' | 'UDP'> = { tcp: 'TCP', udp: 'UDP' };
const TYPES: Record<string, string> = { clusterip: 'ClusterIP', nodeport: 'NodePort', loadbalancer: 'LoadBalancer' };

export function serviceProtocol(s: string): 'TCP' | 'UDP' {
  const p = PROTOCOLS[s.toLowerCase()];
  if (!p) throw new ExposeError(`unknown protocol: ${s}`);
  return p;
}

export function serviceType(s: string): string {
  if (s.toLowerCase() === 'externalname') throw new ExposeError(`type: ${s} not supported`);
  const t = TYPES[s.toLowerCase()];
  if (!t) throw new ExposeError(`unknown service type: ${s}`);
  return t;
}

/** The pod network's interface ports, named port-1, port-2, … */
export function podNetworkPorts(spec: VirtualMachineInstanceSpec | undefined): V1ServicePort[] {
  const podNetwork = spec?.networks?.find((n) => n.pod !== undefined)?.name;
  const iface = podNetwork ? spec?.domain.devices?.interfaces?.find((i) => i.name === podNetwork) : undefined;
  return (iface?.ports ?? []).map((p, i) => ({ name: `port-${i + 1}`, protocol: p.protocol ?? 'TCP', port: p.port }));
}

const targetPortOf = (s: string | undefined): number | string | undefined => (s === undefined || s === '' ? undefined : /^\d+$/.test(s) ? Number(s) : s);

export function renderService(owner: ExposeOwner, namespace: string, flags: ExposeFlags): V1Service {
  const protocol = serviceProtocol(flags.protocol);
  const type = serviceType(flags.type);
  const ports = flags.port ? [{ name: flags.portName, protocol, port: flags.port, targetPort: targetPortOf(flags.targetPort) }] : podNetworkPorts(owner.spec);
  if (ports.length === 0) throw new ExposeError("couldn't find port via --port flag or introspection");
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: flags.name,
      namespace,
      ownerReferences: [{ apiVersion: 'kubevirt.io/v1', kind: owner.kind, name: owner.name, uid: owner.uid, controller: true, blockOwnerDeletion: false }],
    },
    spec: {
      ports,
      selector: { [Label.VMIID]: owner.name },
      type,
      ...(flags.clusterIP ? { clusterIP: flags.clusterIP } : {}),
      ...(flags.externalIP ? { externalIPs: [flags.externalIP] } : {}),
    },
  };
}
