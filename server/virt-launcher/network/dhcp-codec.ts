/**
 * PURE: DHCPv4 messages (RFC 2131/2132) — decode a client's request, encode the server's answer.
 * Only what a launcher's one-guest server needs: BOOTP header, magic cookie, a few options.
 */

export const DHCP_SERVER_PORT = 67;
export const DHCP_CLIENT_PORT = 68;
const MAGIC = 0x63825363;
const HEADER_LEN = 236;
const OP_REQUEST = 1;
const OP_REPLY = 2;

export const MessageType = { discover: 1, offer: 2, request: 3, decline: 4, ack: 5, nak: 6, release: 7, inform: 8 } as const;

export const Option = {
  pad: 0, subnetMask: 1, router: 3, dns: 6, hostname: 12, domainName: 15, mtu: 26, broadcast: 28,
  requestedIP: 50, leaseTime: 51, messageType: 53, serverId: 54, paramRequest: 55, domainSearch: 119, end: 255,
} as const;

export interface DhcpRequest {
  xid: number;
  /** lower-case aa:bb:cc:dd:ee:ff */
  mac: string;
  type: number;
  flags: number;
  ciaddr: string;
  requestedIP?: string;
  serverId?: string;
}

export interface DhcpAnswer {
  type: typeof MessageType.offer | typeof MessageType.ack | typeof MessageType.nak;
  xid: number;
  mac: string;
  flags: number;
  yiaddr: string;
  serverId: string;
  subnetMask?: string;
  router?: string;
  dns?: string[];
  hostname?: string;
  /** RFC 3397 search list (option 119); the first one also goes out as option 15 */
  searchDomains?: string[];
  mtu?: number;
  /** seconds; 0xffffffff = infinite */
  leaseSeconds?: number;
}

export function ipToBytes(ip: string): number[] {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) throw new Error(`not an IPv4 address: ${ip}`);
  return parts;
}

const bytesToIp = (b: Buffer, at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;

export function prefixToMask(prefix: number): string {
  const m = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return [24, 16, 8, 0].map((s) => (m >>> s) & 255).join('.');
}

function macBytes(mac: string): number[] {
  const parts = mac.split(':').map((h) => parseInt(h, 16));
  if (parts.length !== 6 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) throw new Error(`not a MAC address: ${mac}`);
  return parts;
}

/** options as code → value bytes (repeated codes concatenated, RFC 3396) */
function readOptions(b: Buffer, from: number): Map<number, Buffer> {
  const out = new Map<number, Buffer>();
  let i = from;
  while (i < b.length) {
    const code = b[i];
    if (code === Option.end) break;
    if (code === Option.pad) { i += 1; continue; }
    if (i + 1 >= b.length) break;
    const len = b[i + 1];
    const value = b.subarray(i + 2, Math.min(i + 2 + len, b.length));
    const prev = out.get(code);
    out.set(code, prev ? Buffer.concat([prev, value]) : value);
    i += 2 + len;
  }
  return out;
}

/** A client message, or undefined for anything that is not a well-formed Ethernet DHCP request. */
export function decodeRequest(b: Buffer): DhcpRequest | undefined {
  if (b.length < HEADER_LEN + 4 || b[0] !== OP_REQUEST || b[1] !== 1 || b[2] !== 6) return undefined;
  if (b.readUInt32BE(HEADER_LEN) !== MAGIC) return undefined;
  const opts = readOptions(b, HEADER_LEN + 4);
  const type = opts.get(Option.messageType)?.[0];
  if (type === undefined) return undefined;
  const ipOpt = (code: number) => {
    const v = opts.get(code);
    return v && v.length >= 4 ? bytesToIp(v, 0) : undefined;
  };
  return {
    xid: b.readUInt32BE(4), flags: b.readUInt16BE(10), ciaddr: bytesToIp(b, 12), type,
    mac: [...b.subarray(28, 34)].map((x) => x.toString(16).padStart(2, '0')).join(':'),
    requestedIP: ipOpt(Option.requestedIP), serverId: ipOpt(Option.serverId),
  };
}

/** RFC 1035 labels without compression: "a.b" → 1 'a' 1 'b' 0 */
export function encodeDomainList(domains: string[]): number[] {
  const out: number[] = [];
  for (const d of domains) {
    for (const label of d.replace(/\.$/, '').split('.').filter(Boolean)) {
      const bytes = [...Buffer.from(label, 'ascii')];
      if (bytes.length > 63) throw new Error(`DNS label too long: ${label}`);
      out.push(bytes.length, ...bytes);
    }
    out.push(0);
  }
  return out;
}

/** code/len/value, split into 255-byte pieces when longer (RFC 3396) */
function pushOption(out: number[], code: number, value: number[]): void {
  for (let i = 0; i === 0 || i < value.length; i += 255) {
    const piece = value.slice(i, i + 255);
    out.push(code, piece.length, ...piece);
  }
}

const u32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

function answerOptions(a: DhcpAnswer): number[] {
  const o: number[] = [];
  pushOption(o, Option.messageType, [a.type]);
  pushOption(o, Option.serverId, ipToBytes(a.serverId));
  if (a.type === MessageType.nak) return o;
  if (a.leaseSeconds !== undefined) pushOption(o, Option.leaseTime, u32(a.leaseSeconds));
  if (a.subnetMask) pushOption(o, Option.subnetMask, ipToBytes(a.subnetMask));
  if (a.router) pushOption(o, Option.router, ipToBytes(a.router));
  if (a.dns?.length) pushOption(o, Option.dns, a.dns.flatMap(ipToBytes));
  if (a.hostname) pushOption(o, Option.hostname, [...Buffer.from(a.hostname, 'ascii')]);
  if (a.searchDomains?.length) {
    pushOption(o, Option.domainName, [...Buffer.from(a.searchDomains[0], 'ascii')]);
    pushOption(o, Option.domainSearch, encodeDomainList(a.searchDomains));
  }
  if (a.mtu) pushOption(o, Option.mtu, [(a.mtu >> 8) & 255, a.mtu & 255]);
  return o;
}

export function encodeAnswer(a: DhcpAnswer): Buffer {
  const head = Buffer.alloc(HEADER_LEN);
  head[0] = OP_REPLY;
  head[1] = 1;
  head[2] = 6;
  head.writeUInt32BE(a.xid >>> 0, 4);
  head.writeUInt16BE(a.flags & 0x8000, 10);
  if (a.type !== MessageType.nak) Buffer.from(ipToBytes(a.yiaddr)).copy(head, 16);
  Buffer.from(ipToBytes(a.serverId)).copy(head, 20);
  Buffer.from(macBytes(a.mac)).copy(head, 28);
  const opts = [...u32(MAGIC), ...answerOptions(a), Option.end];
  const out = Buffer.concat([head, Buffer.from(opts)]);
  // BOOTP minimum (300 bytes); some clients drop shorter packets
  return out.length >= 300 ? out : Buffer.concat([out, Buffer.alloc(300 - out.length)]);
}

/** Test and log helper: the options of an answer by code. */
export function decodeOptions(b: Buffer): Map<number, Buffer> {
  return readOptions(b, HEADER_LEN + 4);
}
