import { mkdirSync, openSync, closeSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** An IPv4 /24..\/30 pod range: the bridge takes .1, pods take .2 up to the last host address. */
export interface PodCidr {
  base: number;
  prefix: number;
}

export function parseCidr(cidr: string): PodCidr {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr);
  if (!m) throw new Error(`invalid CIDR address: ${cidr}`);
  const octets = m.slice(1, 5).map(Number);
  const prefix = Number(m[5]);
  if (octets.some((o) => o > 255) || prefix < 8 || prefix > 30) throw new Error(`invalid CIDR address: ${cidr}`);
  const ip = octets.reduce((acc, o) => acc * 256 + o, 0);
  const size = 2 ** (32 - prefix);
  return { base: ip - (ip % size), prefix };
}

export function ipToString(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
}

export function ipToNumber(ip: string): number {
  return ip.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
}

export function gatewayOf(c: PodCidr): string {
  return ipToString(c.base + 1);
}

export function cidrString(c: PodCidr): string {
  return `${ipToString(c.base)}/${c.prefix}`;
}

/** The lowest free pod address in `c` not in `used`, or undefined when the range is full. */
export function nextFreeIp(c: PodCidr, used: ReadonlySet<string>): string | undefined {
  const last = c.base + 2 ** (32 - c.prefix) - 2;
  for (let n = c.base + 2; n <= last; n++) {
    const ip = ipToString(n);
    if (!used.has(ip)) return ip;
  }
  return undefined;
}

/**
 * host-local style IPAM: one file per allocated address under `dir` (name = IP, content = pod UID),
 * created with O_EXCL, so allocations survive a kubelet restart and two allocators never share one.
 */
export class Ipam {
  constructor(
    private readonly dir: string,
    readonly cidr: PodCidr,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** uid → ip for every recorded allocation. */
  allocations(): Map<string, string> {
    const out = new Map<string, string>();
    for (const name of readdirSync(this.dir)) {
      if (!/^\d+\.\d+\.\d+\.\d+$/.test(name)) continue;
      out.set(readFileSync(join(this.dir, name), 'utf8').trim(), name);
    }
    return out;
  }

  /** The pod's address: its existing allocation, or the lowest free one. */
  allocate(uid: string): string {
    const current = this.allocations();
    const existing = current.get(uid);
    if (existing) return existing;
    const used = new Set(current.values());
    for (;;) {
      const ip = nextFreeIp(this.cidr, used);
      if (!ip) throw new Error(`no free pod IP in ${cidrString(this.cidr)}`);
      try {
        const fd = openSync(join(this.dir, ip), 'wx');
        writeFileSync(fd, uid);
        closeSync(fd);
        return ip;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        used.add(ip);
      }
    }
  }

  release(uid: string): void {
    for (const [owner, ip] of this.allocations()) if (owner === uid) rmSync(join(this.dir, ip), { force: true });
  }
}
