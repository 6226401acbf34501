/** IPv4 addresses as numbers, and the service range (a CIDR) they are allocated from. */

export interface Ipv4Range {
  cidr: string;
  /** the network address as a number */
  base: number;
  size: number;
}

const DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** a dotted-quad IPv4 address as a number, or undefined when it is not one */
export function parseIpv4(text: string): number | undefined {
  const m = DOTTED.exec(text);
  if (!m) return undefined;
  const octets = m.slice(1).map(Number);
  if (octets.some((o, i) => o > 255 || (m[i + 1].length > 1 && m[i + 1].startsWith('0')))) return undefined;
  return octets.reduce((n, o) => n * 256 + o, 0);
}

export function formatIpv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

export function parseCidr(cidr: string): Ipv4Range {
  const [addr, bits] = cidr.split('/');
  const ip = parseIpv4(addr);
  const prefix = Number(bits);
  if (ip === undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > 32) throw new Error(`bad IPv4 CIDR ${cidr}`);
  const size = 2 ** (32 - prefix);
  return { cidr, base: ip - (ip % size), size };
}

/** offset of an address inside the range, or undefined when it is outside */
export function offsetIn(range: Ipv4Range, ip: number): number | undefined {
  const off = ip - range.base;
  return off >= 0 && off < range.size ? off : undefined;
}
