import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePorts } from './free-ports';

/** a bind that hands out the listed ports first (a kernel reusing ports just released), then any */
function scripted(ports: number[]) {
  const opened: Server[] = [];
  const bind = (host: string) => new Promise<Server>((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const next = ports.shift();
      if (next !== undefined) Object.defineProperty(srv, 'address', { value: () => ({ port: next, address: host, family: 'IPv4' }) });
      opened.push(srv);
      resolve(srv);
    });
  });
  return { bind, opened };
}

describe('freePorts (the ports kv up chooses for handlers, storage upload, controller metrics, virt-api)', () => {
  it('never returns a port the command line named (the API server binds it later) nor one port twice', async () => {
    const { bind } = scripted([6443, 40001, 40001, 3000, 40002, 40003]);
    expect(await freePorts(3, [6443, 3000], '127.0.0.1', bind)).toEqual([40001, 40002, 40003]);
  });

  it('closes every listener it opened, also the skipped ones', async () => {
    const { bind, opened } = scripted([6443]);
    await freePorts(2, [6443], '127.0.0.1', bind);
    expect(opened).toHaveLength(3);
    expect(opened.every((s) => !s.listening)).toBe(true);
  });

  it('gives real distinct ports that can be bound right after', async () => {
    const ports = await freePorts(5, [0]);
    expect(new Set(ports).size).toBe(5);
    for (const port of ports) {
      const srv = createServer();
      await new Promise<void>((resolve, reject) => { srv.once('error', reject); srv.listen(port, '127.0.0.1', resolve); });
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });
});
