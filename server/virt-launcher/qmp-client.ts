/**
 * A QMP (QEMU Machine Protocol) client over a unix socket: greeting, qmp_capabilities,
 * `execute` with ids and timeouts, asynchronous events, and close handling (pending
 * commands fail with `QmpError('Disconnected')`).
 */
import { EventEmitter } from 'node:events';
import { connect as connectSocket, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';

const DEFAULT_TIMEOUT_MS = 5_000;
const CONNECT_RETRY_MS = 20;

export class QmpError extends Error {
  constructor(readonly errorClass: string, message: string) {
    super(message);
    this.name = 'QmpError';
  }
}

export interface QmpEvent { event: string; data?: Record<string, unknown>; timestamp?: { seconds: number; microseconds: number } }

/** One line from QEMU: the greeting, an event, or the reply (`return` or `error`) to the command with `id`. */
interface QmpMessage { QMP?: unknown; event?: unknown; id?: unknown; return?: unknown; error?: { class?: unknown; desc?: unknown } }

interface Pending { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }

export interface QmpClientEvents { event: [QmpEvent]; close: [] }

export class QmpClient extends EventEmitter<QmpClientEvents> {
  private pending = new Map<string, Pending>();
  private nextId = 1;
  private buffer = '';
  private greeting?: (v: unknown) => void;
  private isClosed = false;
  version?: { qemu: { major: number; minor: number; micro: number } };

  private constructor(private readonly socket: Socket) {
    super();
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => this.onData(chunk));
    socket.on('error', () => { /* 'close' follows */ });
    socket.on('close', () => this.onClose());
  }

  /** Connects, retrying while the socket does not exist yet, until `timeoutMs`. */
  static async connect(path: string, opts: { timeoutMs?: number } = {}): Promise<QmpClient> {
    const deadline = Date.now() + (opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    for (;;) {
      try {
        const socket = await openSocket(path);
        const client = new QmpClient(socket);
        await client.negotiate(Math.max(deadline - Date.now(), 100));
        return client;
      } catch (err) {
        if (Date.now() >= deadline || err instanceof QmpError) throw err;
        await delay(CONNECT_RETRY_MS);
      }
    }
  }

  get closed(): boolean { return this.isClosed; }

  async execute<T = unknown>(command: string, args?: Record<string, unknown>, opts: { timeoutMs?: number } = {}): Promise<T> {
    if (this.isClosed) throw new QmpError('Disconnected', `QMP connection closed before ${command}`);
    const id = `kv-${this.nextId++}`;
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new QmpError('Timeout', `QMP ${command} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.socket.write(`${JSON.stringify(args ? { execute: command, arguments: args, id } : { execute: command, id })}\n`);
    });
  }

  /** Resolves with the first event named `name` (optionally matching `filter`) or rejects at the timeout / close. */
  waitForEvent(name: string, opts: { timeoutMs?: number; filter?: (e: QmpEvent) => boolean } = {}): Promise<QmpEvent> {
    return new Promise((resolve, reject) => {
      const cleanup = () => { clearTimeout(timer); this.off('event', onEvent); this.off('close', onClose); };
      const onEvent = (e: QmpEvent) => {
        if (e.event === name && (!opts.filter || opts.filter(e))) { cleanup(); resolve(e); }
      };
      const onClose = () => { cleanup(); reject(new QmpError('Disconnected', `QMP closed while waiting for ${name}`)); };
      const timer = setTimeout(() => { cleanup(); reject(new QmpError('Timeout', `no ${name} event`)); }, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      this.on('event', onEvent);
      this.once('close', onClose);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private async negotiate(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const greeted = new Promise((resolve, reject) => {
      this.greeting = resolve;
      timer = setTimeout(() => reject(new Error('no QMP greeting')), timeoutMs);
      this.once('close', () => reject(new Error('closed before QMP greeting')));
    });
    try {
      const hello = (await greeted) as { QMP: { version: QmpClient['version'] } };
      this.version = hello.QMP.version;
    } catch (err) {
      this.close();
      throw err;
    } finally {
      clearTimeout(timer);
    }
    await this.execute('qmp_capabilities', undefined, { timeoutMs });
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).trim();
      this.buffer = this.buffer.slice(nl + 1);
      if (line) this.onMessage(line);
    }
  }

  private onMessage(line: string): void {
    let msg: QmpMessage;
    try { msg = JSON.parse(line); } catch { return; }
    if (msg.QMP) { this.greeting?.(msg); this.greeting = undefined; return; }
    if (typeof msg.event === 'string') { this.emit('event', msg as QmpEvent); return; }
    const p = typeof msg.id === 'string' ? this.pending.get(msg.id) : undefined;
    if (!p) return;
    this.pending.delete(msg.id as string);
    clearTimeout(p.timer);
    if ('error' in msg) p.reject(new QmpError(String(msg.error?.class ?? 'GenericError'), String(msg.error?.desc ?? 'QMP error')));
    else p.resolve(msg.return);
  }

  private onClose(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const p of this.pending.values()) { clearTimeout(p.timer); p.reject(new QmpError('Disconnected', 'QMP connection closed')); }
    this.pending.clear();
    this.emit('close');
  }
}

function openSocket(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connectSocket(path);
    socket.once('error', reject);
    socket.once('connect', () => { socket.removeListener('error', reject); resolve(socket); });
  });
}
