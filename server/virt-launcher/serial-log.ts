/**
 * The guest's serial console, kept from its first byte (KubeVirt's logSerialConsole): the launcher
 * is QEMU's only serial client (connected before the guest runs), keeps the last RING_BYTES in
 * memory and in `guest-console-log.log` in the pod dir as CRI log records, each chunk with the time
 * it came (bounded: rewritten with the last RING_BYTES of records when it passes FILE_MAX_BYTES), so
 * `kubectl logs -c guest-console-log --timestamps/--since` work as for any container; and serves `serial.sock` to virt-handler. A client that connects gets
 * the ring first (the boot it missed), then the live console; its keystrokes go to the guest. One
 * client at a time: a new one replaces the old, as with QEMU's own socket.
 */
import { closeSync, openSync, rmSync, writeSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { log } from '../log';
import { encodeCriChunk } from '../kube/cri-log';

export const RING_BYTES = 512 * 1024;
export const FILE_MAX_BYTES = 1024 * 1024;

/** The last `limit` bytes written. */
export class ByteRing {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit: number) {}

  push(data: Buffer): void {
    this.chunks.push(data);
    this.size += data.length;
    while (this.size > this.limit) {
      const over = this.size - this.limit;
      const first = this.chunks[0];
      if (first.length <= over) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(over);
        this.size -= over;
      }
    }
  }

  contents(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}

export interface SerialLogOptions {
  /** QEMU's serial chardev socket (server) */
  qemuSocket: string;
  /** the socket virt-handler dials */
  clientSocket: string;
  /** undefined: keep no file (logSerialConsole: false) */
  logFile?: string;
}

export class SerialLog {
  private readonly ring = new ByteRing(RING_BYTES);
  /** the file's last RING_BYTES of records, to rewrite it from */
  private readonly fileRing = new ByteRing(RING_BYTES);
  private qemu?: net.Socket;
  private server?: net.Server;
  private client?: net.Socket;
  private fd?: number;
  private fileBytes = 0;
  private readonly logger = log.child({ component: 'serial-log' });

  constructor(private readonly opts: SerialLogOptions) {}

  /** Connects to QEMU's serial socket and starts serving clients; call before the guest runs. */
  async start(): Promise<void> {
    if (this.opts.logFile) this.fd = openSync(this.opts.logFile, 'a', 0o600);
    this.qemu = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect(this.opts.qemuSocket, () => resolve(s));
      s.once('error', reject);
    });
    this.qemu.on('data', (d: Buffer) => this.onGuestOutput(d));
    this.qemu.on('error', () => undefined);
    this.qemu.on('close', () => this.stop());
    rmSync(this.opts.clientSocket, { force: true });
    this.server = net.createServer((c) => this.attach(c));
    await new Promise<void>((resolve, reject) => { this.server!.once('error', reject); this.server!.listen(this.opts.clientSocket, resolve); });
  }

  private onGuestOutput(d: Buffer): void {
    this.ring.push(d);
    this.client?.write(d);
    if (this.fd === undefined) return;
    const records = encodeCriChunk(d, 'stdout');
    this.fileRing.push(records);
    writeSync(this.fd, records);
    this.fileBytes += records.length;
    if (this.fileBytes > FILE_MAX_BYTES) this.rewriteFile();
  }

  /** Keeps the file bounded: its content becomes the last RING_BYTES of records, from a whole one. */
  private rewriteFile(): void {
    const path = this.opts.logFile!;
    closeSync(this.fd!);
    const kept = this.fileRing.contents();
    const tail = kept.length < RING_BYTES ? kept : kept.subarray(kept.indexOf(0x0a) + 1);
    writeFileSync(path, tail, { mode: 0o600 });
    this.fd = openSync(path, 'a', 0o600);
    this.fileBytes = tail.length;
  }

  private attach(c: net.Socket): void {
    this.client?.destroy();
    this.client = c;
    c.write(this.ring.contents());
    c.on('data', (d: Buffer) => this.qemu?.write(d));
    c.on('error', () => undefined);
    c.on('close', () => { if (this.client === c) this.client = undefined; });
  }

  stop(): void {
    this.client?.destroy();
    this.server?.close();
    this.qemu?.destroy();
    if (this.fd !== undefined) {
      try { closeSync(this.fd); } catch (err) { this.logger.debug({ err }, 'closing the console log'); }
      this.fd = undefined;
    }
  }
}
