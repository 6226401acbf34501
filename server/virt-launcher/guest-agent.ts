/**
 * qemu-guest-agent over the `qga.sock` chardev: one short connection per query, guest-sync
 * first (the channel may hold stale replies), then the commands. No agent → connected: false.
 */
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import type { AccessCredentials, GuestFilesystem, GuestInfo, GuestUser } from './protocol';
import { POD_FILES } from './protocol';

const DEFAULT_TIMEOUT_MS = 1_500;

/** One line from the agent: a command's `return` or its `error`. */
interface AgentReply { return?: unknown; error?: { class?: string; desc?: string } }

class AgentSession {
  private buffer = '';
  private waiters: ((msg: AgentReply) => void)[] = [];

  constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      // guest-sync-delimited answers after a 0xFF byte, which the utf8 decoder turns into U+FFFD
      this.buffer += chunk.replaceAll('\ufffd', '').replaceAll('\xff', '');
      let nl: number;
      while ((nl = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, nl).trim();
        this.buffer = this.buffer.slice(nl + 1);
        try { if (line) this.waiters.shift()?.(JSON.parse(line)); } catch { /* garbage before sync */ }
      }
    });
  }

  private next(): Promise<AgentReply> { return new Promise((resolve) => this.waiters.push(resolve)); }

  async sync(): Promise<void> {
    const id = Math.floor(Math.random() * 2 ** 31);
    this.socket.write(`${JSON.stringify({ execute: 'guest-sync-delimited', arguments: { id } })}\n`);
    for (;;) if ((await this.next()).return === id) return;
  }

  async execute<T>(command: string, args?: Record<string, unknown>): Promise<T> {
    this.socket.write(`${JSON.stringify(args ? { execute: command, arguments: args } : { execute: command })}\n`);
    const msg = await this.next();
    if (msg.error) throw new Error(`${command}: ${msg.error.desc ?? 'guest agent error'}`);
    return msg.return as T;
  }
}

async function withAgent<T>(podDir: string, timeoutMs: number, fn: (s: AgentSession) => Promise<T>): Promise<T> {
  const socket = connect(join(podDir, POD_FILES.guestAgentSocket));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error('guest agent timeout')), timeoutMs); });
  const failed = new Promise<never>((_, reject) => socket.once('error', reject));
  try {
    await Promise.race([new Promise((r) => socket.once('connect', r)), failed, timeout]);
    const session = new AgentSession(socket);
    return await Promise.race([session.sync().then(() => fn(session)), failed, timeout]);
  } finally {
    clearTimeout(timer);
    socket.destroy();
  }
}

interface OsInfo { name?: string; id?: string; version?: string; 'version-id'?: string; 'pretty-name'?: string; 'kernel-release'?: string; 'kernel-version'?: string; machine?: string }
interface AgentIface { name: string; 'hardware-address'?: string; 'ip-addresses'?: { 'ip-address': string }[] }

export async function queryGuestInfo(podDir: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<GuestInfo> {
  try {
    return await withAgent(podDir, timeoutMs, async (s) => {
      const info = await s.execute<{ version?: string }>('guest-info');
      const os = await s.execute<OsInfo>('guest-get-osinfo').catch(() => undefined);
      const host = await s.execute<{ 'host-name'?: string }>('guest-get-host-name').catch(() => undefined);
      const ifaces = await s.execute<AgentIface[]>('guest-network-get-interfaces').catch(() => undefined);
      const tz = await s.execute<{ zone?: string; offset?: number }>('guest-get-timezone').catch(() => undefined);
      return {
        connected: true, agentVersion: info.version, hostname: host?.['host-name'],
        timezone: tz ? `${tz.zone ?? ''}, ${tz.offset ?? 0}` : undefined,
        os: os && { name: os.name, id: os.id, version: os.version, versionId: os['version-id'], prettyName: os['pretty-name'], kernelRelease: os['kernel-release'], kernelVersion: os['kernel-version'], machine: os.machine },
        interfaces: ifaces?.map((i) => ({ name: i.name, mac: i['hardware-address'], ipAddresses: (i['ip-addresses'] ?? []).map((a) => a['ip-address']) })),
      };
    });
  } catch {
    return { connected: false };
  }
}

export class AgentNotConnected extends Error {}

async function askAgent<T>(podDir: string, timeoutMs: number, fn: (s: AgentSession) => Promise<T>): Promise<T> {
  try {
    return await withAgent(podDir, timeoutMs, fn);
  } catch (err) {
    throw new AgentNotConnected(`guest agent did not answer: ${err instanceof Error ? err.message : String(err)}`);
  }
}

interface AgentUser { user: string; domain?: string; 'login-time'?: number }
interface AgentFs { name: string; mountpoint: string; type: string; 'used-bytes'?: number; 'total-bytes'?: number }

/** guest-get-users (KubeVirt's userlist). */
export function queryGuestUsers(podDir: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<GuestUser[]> {
  return askAgent(podDir, timeoutMs, async (s) => (await s.execute<AgentUser[]>('guest-get-users')).map((u) => ({ userName: u.user, domain: u.domain, loginTime: u['login-time'] })));
}

/** guest-get-fsinfo (KubeVirt's filesystemlist). */
export function queryGuestFilesystems(podDir: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<GuestFilesystem[]> {
  return askAgent(podDir, timeoutMs, async (s) => (await s.execute<AgentFs[]>('guest-get-fsinfo')).map((f) => ({
    diskName: f.name, mountPoint: f.mountpoint, fileSystemType: f.type, usedBytes: f['used-bytes'], totalBytes: f['total-bytes'],
  })));
}

/** guest-shutdown mode=reboot; resolves false when no agent answered. */
export async function rebootViaAgent(podDir: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<boolean> {
  try {
    await withAgent(podDir, timeoutMs, async (s) => {
      s.execute('guest-shutdown', { mode: 'reboot' }).catch(() => undefined); // the agent never replies to guest-shutdown
    });
    return true;
  } catch {
    return false;
  }
}


/**
 * KubeVirt's accessCredentials through the agent: guest-ssh-add-authorized-keys with reset (the
 * user's file becomes exactly these keys) and guest-set-user-password (plain, base64 as QGA wants).
 */
export function applyAccessCredentials(podDir: string, creds: AccessCredentials, timeoutMs = DEFAULT_TIMEOUT_MS * 2): Promise<void> {
  return askAgent(podDir, timeoutMs, async (s) => {
    for (const k of creds.authorizedKeys ?? []) await s.execute('guest-ssh-add-authorized-keys', { username: k.user, keys: k.keys, reset: true });
    for (const p of creds.passwords ?? []) await s.execute('guest-set-user-password', { username: p.user, password: Buffer.from(p.password).toString('base64'), crypted: false });
  });
}

/** guest-fsfreeze-freeze / guest-fsfreeze-thaw: how many filesystems changed state. */
export function freezeFilesystems(podDir: string, freeze: boolean, timeoutMs = DEFAULT_TIMEOUT_MS * 4): Promise<number> {
  return askAgent(podDir, timeoutMs, (s) => s.execute<number>(freeze ? 'guest-fsfreeze-freeze' : 'guest-fsfreeze-thaw'));
}
