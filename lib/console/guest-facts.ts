/**
 * PURE: what the VM page's Guest card shows, from the three guest-agent subresources
 * (guestosinfo, userlist, filesystemlist), in KubeVirt's shapes.
 */
import { formatBytes } from './format';

export interface GuestAgentInfo {
  guestAgentVersion?: string;
  hostname?: string;
  timezone?: string;
  os?: { prettyName?: string; name?: string; version?: string; kernelRelease?: string; kernelVersion?: string; machine?: string };
  interfaces?: { interfaceName?: string; mac?: string; ipAddresses?: string[] }[];
}
export interface GuestUserList { items?: { userName: string; domain?: string; loginTime?: number }[] }
export interface GuestFsList { items?: { diskName?: string; mountPoint: string; fileSystemType: string; usedBytes?: number; totalBytes?: number }[] }

export interface GuestFacts {
  facts: [string, string][];
  addresses: { name: string; ips: string }[];
  users: { name: string; since: string }[];
  filesystems: { mount: string; type: string; used: string; percent?: number }[];
}

const or = (v: string | undefined) => (v && v.trim() ? v : '—');

/** seconds since the epoch (the agent's loginTime) → an ISO-like local line */
function loginLine(seconds: number | undefined): string {
  if (!seconds) return '—';
  return new Date(seconds * 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

export function guestFacts(info: GuestAgentInfo | undefined, users: GuestUserList | undefined, fss: GuestFsList | undefined): GuestFacts {
  const os = info?.os ?? {};
  return {
    facts: [
      ['OS', or(os.prettyName ?? [os.name, os.version].filter(Boolean).join(' '))],
      ['Kernel', or([os.kernelRelease, os.machine].filter(Boolean).join(' '))],
      ['Hostname', or(info?.hostname)],
      ['Time zone', or(info?.timezone)],
      ['Agent', or(info?.guestAgentVersion)],
    ],
    addresses: (info?.interfaces ?? [])
      .map((i) => ({ name: i.interfaceName ?? i.mac ?? '?', ips: (i.ipAddresses ?? []).filter((ip) => !ip.startsWith('fe80:')).join(', ') }))
      .filter((a) => a.name !== 'lo' && a.ips !== ''),
    users: (users?.items ?? []).map((u) => ({ name: u.domain ? `${u.domain}\\${u.userName}` : u.userName, since: loginLine(u.loginTime) })),
    filesystems: (fss?.items ?? []).map((f) => {
      const percent = f.totalBytes ? Math.round(((f.usedBytes ?? 0) / f.totalBytes) * 100) : undefined;
      return { mount: f.mountPoint, type: f.fileSystemType, used: f.totalBytes ? `${formatBytes(f.usedBytes ?? 0)} of ${formatBytes(f.totalBytes)}` : '—', percent };
    }),
  };
}
