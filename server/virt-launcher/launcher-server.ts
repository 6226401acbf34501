/** The JSON-lines server on `<pod dir>/launcher.sock`: requests → Launcher.handle, events → every client. */
import { createServer, type Server, type Socket } from 'node:net';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { log } from '../log';
import { LAUNCHER_ERRORS, POD_FILES, type LauncherEvent, type LauncherRequest, type LauncherResponse } from './protocol';
import type { Launcher } from './launcher';

const logger = log.child({ component: 'virt-launcher' });

/** What the server needs of the launcher: main.ts gives it one that waits for the Launcher's code to load. */
export interface LauncherHandle {
  handle: Launcher['handle'];
  on(event: 'event', listener: (ev: LauncherEvent) => void): unknown;
}

export class LauncherServer {
  private server?: Server;
  private clients = new Set<Socket>();

  constructor(private readonly launcher: LauncherHandle, private readonly podDir: string) {
    launcher.on('event', (ev) => this.broadcast(ev));
  }

  /** Listens, then writes `launcher.ready`. */
  async listen(): Promise<void> {
    const path = join(this.podDir, POD_FILES.launcherSocket);
    await rm(path, { force: true });
    this.server = createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(path, () => resolve());
    });
    await writeFile(join(this.podDir, POD_FILES.launcherReady), `${process.pid}\n`);
  }

  /** Flushes pending writes to every client, then closes. */
  async close(): Promise<void> {
    await Promise.all([...this.clients].map((c) => new Promise<void>((resolve) => c.end(resolve))));
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private broadcast(ev: LauncherEvent): void {
    const line = `${JSON.stringify(ev)}\n`;
    for (const c of this.clients) if (c.writable) c.write(line);
  }

  private accept(socket: Socket): void {
    this.clients.add(socket);
    socket.setEncoding('utf8');
    let buffer = '';
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line) void this.serve(socket, line);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => this.clients.delete(socket));
  }

  private async serve(socket: Socket, line: string): Promise<void> {
    let req: LauncherRequest;
    try {
      req = JSON.parse(line) as LauncherRequest;
    } catch {
      return this.reply(socket, { id: -1, ok: false, error: { reason: LAUNCHER_ERRORS.badRequest, message: 'invalid JSON' } });
    }
    try {
      const result = await this.launcher.handle(req.cmd, req.args as never);
      this.reply(socket, { id: req.id, ok: true, result: result ?? null });
    } catch (err) {
      const reason = (err as { reason?: string }).reason ?? LAUNCHER_ERRORS.qmp;
      logger.debug({ cmd: req.cmd, reason, err: (err as Error).message }, 'command failed');
      this.reply(socket, { id: req.id, ok: false, error: { reason, message: (err as Error).message } });
    }
  }

  private reply(socket: Socket, res: LauncherResponse): void {
    if (socket.writable) socket.write(`${JSON.stringify(res)}\n`);
  }
}
