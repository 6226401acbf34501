/**
 * virt-handler's side of launcher.sock: requests with ids and timeouts, pushed events
 * (EventEmitter and async iterator). Reconnect-safe: when the socket drops, pending requests
 * fail with `Disconnected`, the client reconnects with backoff (until `close()`), and the
 * next request waits for the new connection.
 */
import { EventEmitter, on } from 'node:events';
import { connect as connectSocket, type Socket } from 'node:net';
import { join } from 'node:path';
import type {
  CommandArgs, CommandName, CommandResult, DomainStatus, ErrorBody, LauncherEvent, LauncherMessage, MigrationInfo,
} from './protocol';
import { POD_FILES } from './protocol';

const DEFAULT_TIMEOUT_MS = 10_000;
const BACKOFF_MIN_MS = 50;
const BACKOFF_MAX_MS = 2_000;

export class LauncherError extends Error {
  constructor(readonly reason: string, message: string) {
    super(message);
    this.name = 'LauncherError';
  }
}

interface Pending { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }

export interface LauncherClientEvents {
  event: [LauncherEvent];
  domain: [DomainStatus];
  migration: [MigrationInfo];
  connect: [];
  disconnect: [Error | undefined];
}

export class LauncherClient extends EventEmitter<LauncherClientEvents> {
  readonly socketPath: string;
  private socket?: Socket;
  private connecting?: Promise<Socket>;
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private backoffMs = BACKOFF_MIN_MS;
  private retryTimer?: NodeJS.Timeout;

  constructor(readonly podDir: string) {
    super();
    this.socketPath = join(podDir, POD_FILES.launcherSocket);
  }

  /** Connects (or returns at once when connected); rejects if the socket cannot be reached now. */
  static async connect(podDir: string): Promise<LauncherClient> {
    const client = new LauncherClient(podDir);
    await client.ensureConnected();
    return client;
  }

  get connected(): boolean { return this.socket !== undefined; }

  async request<C extends CommandName>(cmd: C, args?: CommandArgs<C>, opts: { timeoutMs?: number } = {}): Promise<CommandResult<C>> {
    const socket = await this.ensureConnected();
    const id = this.nextId++;
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return new Promise<CommandResult<C>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new LauncherError('Timeout', `launcher command ${cmd} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      socket.write(`${JSON.stringify({ id, cmd, args })}\n`);
    });
  }

  /** Pushed events until the signal aborts or the client closes. */
  async *events(signal?: AbortSignal): AsyncGenerator<LauncherEvent> {
    const stop = new AbortController();
    const onClose = () => stop.abort();
    this.once('disconnect', () => { if (this.closed) onClose(); });
    signal?.addEventListener('abort', onClose, { once: true });
    try {
      for await (const [ev] of on(this, 'event', { signal: stop.signal })) yield ev as LauncherEvent;
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
    }
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.socket?.destroy();
    this.failPending(new LauncherError('Disconnected', 'launcher client closed'));
    this.emit('disconnect', undefined);
  }

  private ensureConnected(): Promise<Socket> {
    if (this.closed) return Promise.reject(new LauncherError('Disconnected', 'launcher client closed'));
    if (this.socket) return Promise.resolve(this.socket);
    this.connecting ??= this.open().finally(() => { this.connecting = undefined; });
    return this.connecting;
  }

  private open(): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = connectSocket(this.socketPath);
      socket.once('error', (err) => reject(new LauncherError('Disconnected', `launcher socket: ${err.message}`)));
      socket.once('connect', () => {
        socket.removeAllListeners('error');
        this.attach(socket);
        resolve(socket);
      });
    });
  }

  private attach(socket: Socket): void {
    this.socket = socket;
    this.backoffMs = BACKOFF_MIN_MS;
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.trim()) this.dispatch(line);
      }
    });
    socket.on('error', () => { /* 'close' follows */ });
    socket.on('close', () => {
      this.socket = undefined;
      this.failPending(new LauncherError('Disconnected', 'launcher connection closed'));
      if (this.closed) return;
      this.emit('disconnect', undefined);
      this.scheduleReconnect();
    });
    this.emit('connect');
  }

  private scheduleReconnect(): void {
    if (this.closed || this.listenerCount('event') + this.listenerCount('domain') + this.listenerCount('migration') === 0) return;
    this.retryTimer = setTimeout(() => {
      this.ensureConnected().catch(() => {
        this.backoffMs = Math.min(this.backoffMs * 2, BACKOFF_MAX_MS);
        this.scheduleReconnect();
      });
    }, this.backoffMs);
  }

  private dispatch(line: string): void {
    let msg: LauncherMessage;
    try { msg = JSON.parse(line) as LauncherMessage; } catch { return; }
    if ('event' in msg) {
      this.emit('event', msg);
      if (msg.event === 'domain') this.emit('domain', msg.status);
      else this.emit('migration', msg.info);
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    clearTimeout(p.timer);
    if (msg.ok) p.resolve(msg.result);
    else p.reject(new LauncherError((msg.error as ErrorBody).reason, (msg.error as ErrorBody).message));
  }

  private failPending(err: Error): void {
    for (const p of this.pending.values()) { clearTimeout(p.timer); p.reject(err); }
    this.pending.clear();
  }
}
