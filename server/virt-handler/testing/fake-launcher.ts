/**
 * A stand-in for `kv launcher` in a temp pod dir: answers the launcher.sock protocol from a
 * scripted DomainStatus, records commands, and serves echo servers on vnc.sock and serial.sock.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { POD_FILES, type DomainStats, type DomainStatus } from '../../virt-launcher/protocol';

export class FakeLauncher {
  readonly podDir: string;
  readonly commands: string[] = [];
  domain: DomainStatus = { vmiUID: 'uid-1', state: 'running', accel: 'tcg', machine: 'pc-q35-7.2' };
  /** false: like a fresh launcher, no domain (commands but `sync` fail with DomainNotStarted) until the first `sync` */
  hasDomain = true;
  stats: DomainStats = {
    timestamp: new Date().toISOString(), cpuSeconds: { total: 12.5, user: 10, system: 2.5 }, vcpus: 1,
    memory: { domainBytes: 134217728, residentBytes: 90_000_000 },
    block: [{ name: 'root', readBytes: 4096, writeBytes: 512, readOps: 3, writeOps: 1, readTimeNs: 1e6, writeTimeNs: 2e6, flushOps: 1 }],
    net: [{ name: 'default', rxBytes: 100, txBytes: 200 }],
  };
  private readonly servers: Server[] = [];
  private readonly clients = new Set<Socket>();

  /** `podDir`: where a kubelet would have put the pod (created); default a temp dir. */
  constructor(podDir?: string) {
    this.podDir = podDir ?? mkdtempSync(join(tmpdir(), 'kv-fake-pod-'));
    mkdirSync(this.podDir, { recursive: true });
  }

  async start(): Promise<this> {
    await this.listen(POD_FILES.launcherSocket, (s) => this.serveProtocol(s));
    await this.listen(POD_FILES.vncSocket, (s) => s.pipe(s));
    await this.listen(POD_FILES.serialSocket, (s) => s.pipe(s));
    writeFileSync(join(this.podDir, POD_FILES.launcherReady), '');
    return this;
  }

  /** Push a domain event to every connected handler. */
  push(domain: DomainStatus): void {
    this.domain = domain;
    for (const c of this.clients) c.write(`${JSON.stringify({ event: 'domain', status: domain })}\n`);
  }

  async stop(): Promise<void> {
    for (const c of this.clients) c.destroy();
    await Promise.all(this.servers.map((s) => new Promise((r) => s.close(r))));
    rmSync(this.podDir, { recursive: true, force: true });
  }

  private listen(file: string, onConn: (s: Socket) => void): Promise<void> {
    const server = createServer((s) => { s.on('error', () => s.destroy()); onConn(s); });
    this.servers.push(server);
    return new Promise((r) => server.listen(join(this.podDir, file), r));
  }

  private serveProtocol(s: Socket): void {
    this.clients.add(s);
    s.on('close', () => this.clients.delete(s));
    let buf = '';
    s.on('data', (d) => {
      buf += d.toString();
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const { id, cmd } = JSON.parse(buf.slice(0, nl)) as { id: number; cmd: string };
        buf = buf.slice(nl + 1);
        this.commands.push(cmd);
        if (cmd === 'sync') this.hasDomain = true;
        const reply = this.hasDomain ? { id, ok: true, result: this.answer(cmd) } : { id, ok: false, error: { reason: 'DomainNotStarted', message: 'no domain: send sync first' } };
        s.write(`${JSON.stringify(reply)}\n`);
      }
    });
  }

  private answer(cmd: string): unknown {
    if (cmd === 'stats') return this.stats;
    if (cmd === 'guestInfo') return { connected: false };
    if (cmd === 'sync' && this.domain.state === 'starting') setImmediate(() => this.push({ ...this.domain, state: 'running', startedAt: new Date().toISOString() }));
    if (cmd === 'shutdown') setImmediate(() => this.push({ ...this.domain, state: 'shutoff', reason: 'Shutdown', acpiAttempted: true }));
    if (cmd === 'pause') this.domain = { ...this.domain, state: 'paused', reason: 'PausedByUser' };
    if (cmd === 'unpause') this.domain = { ...this.domain, state: 'running', reason: undefined };
    return this.domain;
  }
}
