/** IPv4 address ranges as numbers: ipBlock `cidr` minus its `except` list, merged, printed for nft sets. */
import { isIPv4 } from 'node:net';

/** inclusive [first, last] address */
export type Range = [number, number];

export function ipv4ToNumber(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

export function numberToIpv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/** the range of an IPv4 CIDR (host bits ignored, as Go's ParseCIDR does); undefined for IPv6 or junk */
export function cidrRange(cidr: string): Range | undefined {
  const [ip, prefixText] = cidr.split('/');
  const prefix = Number(prefixText);
  if (!isIPv4(ip) || !/^\d{1,2}$/.test(prefixText ?? '') || prefix > 32) return undefined;
  const size = 2 ** (32 - prefix);
  const first = Math.floor(ipv4ToNumber(ip) / size) * size;
  return [first, first + size - 1];
}

/** sorted, with overlapping and adjacent ranges joined */
export function mergeRanges(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + 1) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** `from` with every range of `holes` cut out */
export function subtractRanges(from: readonly Range[], holes: readonly Range[]): Range[] {
  let rest = mergeRanges(from);
  for (const [ha, hb] of mergeRanges(holes)) {
    rest = rest.flatMap(([a, b]): Range[] => {
      if (hb < a || ha > b) return [[a, b]];
      const parts: Range[] = [];
      if (ha > a) parts.push([a, ha - 1]);
      if (hb < b) parts.push([hb + 1, b]);
      return parts;
    });
  }
  return rest;
}

/** nft set elements: `10.0.0.5` or `10.0.0.0-10.0.255.255` */
export function rangeElement([a, b]: Range): string {
  return a === b ? numberToIpv4(a) : `${numberToIpv4(a)}-${numberToIpv4(b)}`;
}
