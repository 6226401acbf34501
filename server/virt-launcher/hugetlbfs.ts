/**
 * Where QEMU finds hugepages of a VMI's page size: the host's own hugetlbfs mount of that size
 * (systemd's /dev/hugepages), else one the launcher mounts at `<pod dir>/hugepages-<size>` inside
 * QEMU's private mount namespace, so it lives and goes with that QEMU and the host's mounts stay as
 * they were. Without mount namespaces (not root) and no host mount, there is none (the converter says so).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const UNIT: Record<string, number> = { '': 1, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30 };
const PAGE_BYTES: Record<string, number> = { '2Mi': 2 * 2 ** 20, '1Gi': 2 ** 30 };
/** the mount option for each page size */
const MOUNT_OPTION: Record<string, string> = { '2Mi': '2M', '1Gi': '1G' };

/** A hugetlbfs mount QEMU's namespace must make. */
export interface HugetlbfsMount { path: string; pageSizeOption: string }

/** `pagesize=2M` → bytes; a mount without the option has the kernel's default size. */
function pageSizeOf(options: string, defaultBytes: number): number {
  const m = /(?:^|,)pagesize=(\d+)([KMG]?)(?:,|$)/i.exec(options);
  return m ? Number(m[1]) * UNIT[m[2].toUpperCase()] : defaultBytes;
}

/** The kernel's default hugepage size (Hugepagesize in /proc/meminfo), 2Mi when unreadable. */
export function defaultHugepageBytes(meminfo = safeRead('/proc/meminfo')): number {
  const kb = /^Hugepagesize:\s+(\d+) kB/m.exec(meminfo)?.[1];
  return kb ? Number(kb) * 1024 : PAGE_BYTES['2Mi'];
}

/** The mount point of a hugetlbfs with pages of `pageSize` in a /proc/mounts text, if any. */
export function findHugetlbfs(mounts: string, pageSize: string, defaultBytes: number): string | undefined {
  const want = PAGE_BYTES[pageSize];
  if (!want) return undefined;
  for (const line of mounts.split('\n')) {
    const [, path, type, options] = line.split(' ');
    if (type === 'hugetlbfs' && pageSizeOf(options ?? '', defaultBytes) === want) return path.replace(/\\040/g, ' ');
  }
  return undefined;
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Resolves hugetlbfs paths for the converter and remembers the mounts QEMU must make itself. */
export class HugetlbfsResolver {
  readonly toMount: HugetlbfsMount[] = [];

  constructor(private readonly podDir: string, private readonly canMount: boolean, private readonly mounts = safeRead('/proc/self/mounts')) {}

  resolve(pageSize: string): string | undefined {
    const host = findHugetlbfs(this.mounts, pageSize, defaultHugepageBytes());
    if (host) return host;
    const option = MOUNT_OPTION[pageSize];
    if (!option || !this.canMount) return undefined;
    const path = join(this.podDir, `hugepages-${pageSize}`);
    mkdirSync(path, { recursive: true });
    if (!this.toMount.some((m) => m.path === path)) this.toMount.push({ path, pageSizeOption: option });
    return path;
  }
}
