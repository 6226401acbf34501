/**
 * PURE: virtctl port-forward's arguments. The target is `vm/NAME`, `vmi/NAME` (also the long kind
 * names), optionally `NAME.NAMESPACE`; bare `NAME` means a VMI. Ports are `[PROTOCOL/]PORT` or
 * `[PROTOCOL/]LOCAL:REMOTE` (LOCAL 0 = any free port; PROTOCOL tcp, the default, or udp).
 */
import { UsageError } from '../virtctl-error';

export interface ForwardTarget { kind: 'vm' | 'vmi'; name: string; namespace?: string }
export interface PortPair { local: number; remote: number; protocol: 'tcp' | 'udp' }

const KINDS: Record<string, 'vm' | 'vmi'> = {
  vm: 'vm', vms: 'vm', virtualmachine: 'vm', virtualmachines: 'vm',
  vmi: 'vmi', vmis: 'vmi', virtualmachineinstance: 'vmi', virtualmachineinstances: 'vmi',
};

export function parseForwardTarget(arg: string): ForwardTarget {
  const slash = arg.indexOf('/');
  const kindWord = slash >= 0 ? arg.slice(0, slash).toLowerCase() : 'vmi';
  const kind = KINDS[kindWord];
  if (!kind) throw new UsageError(`unsupported resource type '${kindWord}'`);
  const rest = slash >= 0 ? arg.slice(slash + 1) : arg;
  const [name, namespace, ...extra] = rest.split('.');
  if (!name || extra.length || namespace === '') throw new UsageError(`invalid target '${arg}': expected TYPE/NAME[.NAMESPACE]`);
  return { kind, name, namespace };
}

function port(text: string, allowZero: boolean): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535 || (n === 0 && !allowZero)) throw new UsageError(`invalid port '${text}'`);
  return n;
}

export function parsePortPair(arg: string): PortPair {
  const slash = arg.indexOf('/');
  const protocol = slash >= 0 ? arg.slice(0, slash).toLowerCase() : 'tcp';
  if (protocol !== 'tcp' && protocol !== 'udp') throw new UsageError(`invalid protocol '${arg.slice(0, slash)}': tcp or udp`);
  const parts = arg.slice(slash + 1).split(':');
  if (parts.length === 1) return { local: port(parts[0], false), remote: port(parts[0], false), protocol };
  if (parts.length === 2) return { local: parts[0] === '' ? 0 : port(parts[0], true), remote: port(parts[1], false), protocol };
  throw new UsageError(`invalid port mapping '${arg}'`);
}
