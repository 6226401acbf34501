/** CIDR parsing as Go's net.ParseCIDR sees it (IPv4 and IPv6), for ipBlock validation. */
import { isIPv4, isIPv6 } from 'node:net';

export interface Cidr {
  family: 4 | 6;
  /** the network address with the bits past the prefix cleared */
  network: bigint;
  prefix: number;
}

function v4Bits(ip: string): bigint {
  return ip.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

function v6Bits(ip: string): bigint {
  let text = ip;
  let tail: bigint[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.')) {
    const v4 = v4Bits(text.slice(lastColon + 1));
    tail = [v4 >> 16n, v4 & 0xffffn];
    text = `${text.slice(0, lastColon + 1)}x`;
  }
  const [head, rest] = text.split('::');
  const groups = (s: string | undefined) => (s ? s.split(':').filter((g) => g !== 'x') : []);
  const left = groups(head);
  const right = groups(rest);
  const fill = 8 - tail.length - left.length - right.length;
  const all = [...left.map((g) => BigInt(`0x${g}`)), ...Array<bigint>(rest === undefined ? 0 : fill).fill(0n), ...right.map((g) => BigInt(`0x${g}`)), ...tail];
  return all.reduce((n, g) => (n << 16n) | g, 0n);
}

/** undefined when `value` is not `<ip>/<prefix>` */
export function parseCidr(value: string): Cidr | undefined {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(value);
  if (!m) return undefined;
  const family = isIPv4(m[1]) ? 4 : isIPv6(m[1]) ? 6 : undefined;
  if (!family) return undefined;
  const width = family === 4 ? 32 : 128;
  const prefix = Number(m[2]);
  if (prefix > width) return undefined;
  const bits = family === 4 ? v4Bits(m[1]) : v6Bits(m[1]);
  const hostBits = BigInt(width - prefix);
  return { family, network: (bits >> hostBits) << hostBits, prefix };
}

/** `inner` lies inside `outer` and is strictly smaller (kube: "a strict subset of `cidr`") */
export function isStrictSubset(inner: Cidr, outer: Cidr): boolean {
  if (inner.family !== outer.family || inner.prefix <= outer.prefix) return false;
  const hostBits = BigInt((outer.family === 4 ? 32 : 128) - outer.prefix);
  return inner.network >> hostBits === outer.network >> hostBits;
}
