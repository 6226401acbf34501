/**
 * Bridges a WebSocket to a guest's unix socket (QEMU's vnc.sock or serial.sock). One session per
 * VMI and stream: a new one replaces the old (closed with CloseCode.Replaced), so QEMU only ever
 * sees the handler's single connection, like KubeVirt's handler owning the console.
 */
import { connect, type Socket } from 'node:net';
import type { WebSocket } from 'ws';
import { CloseCode } from './constants';

const CONNECT_ATTEMPTS = 20;
const CONNECT_RETRY_MS = 50;

export type StreamKind = 'vnc' | 'console';

function connectUnix(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(path);
    s.once('connect', () => { s.removeAllListeners('error'); resolve(s); });
    s.once('error', reject);
  });
}

/** QEMU re-accepts a chardev client only after the previous one is gone: retry briefly. */
export async function connectGuestSocket(path: string): Promise<Socket> {
  for (let i = 1; ; i++) {
    try {
      return await connectUnix(path);
    } catch (err) {
      if (i >= CONNECT_ATTEMPTS) throw err;
      await new Promise((r) => setTimeout(r, CONNECT_RETRY_MS));
    }
  }
}

export class StreamSessions {
  private readonly active = new Map<string, { ws: WebSocket; socket: Socket }>();

  /** Replaces any session for `id`, then pumps bytes both ways until either side closes. */
  attach(id: string, ws: WebSocket, socket: Socket): void {
    const old = this.active.get(id);
    if (old) {
      old.socket.destroy();
      old.ws.close(CloseCode.Replaced, 'replaced by a newer connection');
    }
    this.active.set(id, { ws, socket });
    const finish = () => {
      if (this.active.get(id)?.ws === ws) this.active.delete(id);
    };
    socket.on('data', (chunk: Buffer) => { if (ws.readyState === ws.OPEN) ws.send(chunk, { binary: true }); });
    socket.on('close', () => {
      finish();
      if (ws.readyState === ws.OPEN) ws.close(CloseCode.GuestGone, 'guest stream closed');
    });
    socket.on('error', () => { /* close follows */ });
    ws.on('message', (data: Buffer | Buffer[] | ArrayBuffer) => {
      socket.write(Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer));
    });
    ws.on('close', () => { finish(); socket.destroy(); });
    ws.on('error', () => socket.destroy());
  }

  /** Active sessions (for tests and metrics). */
  get size(): number {
    return this.active.size;
  }

  closeAll(): void {
    for (const { ws, socket } of this.active.values()) { socket.destroy(); ws.terminate(); }
    this.active.clear();
  }
}
