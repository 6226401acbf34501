import { createServer, type AddressInfo, type Server } from 'node:net';

/** Binds a listener on a port the kernel chooses on `host`; the caller closes it. */
function bindAny(host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => resolve(srv));
  });
}

/**
 * `count` distinct TCP ports free on `host` now, none of them in `reserved` (the ports the user
 * named on the command line, which their components bind only later). Every listener stays open
 * until all are chosen, so the kernel cannot hand out one port twice; a reserved port the kernel
 * offers is skipped. Without this a handler could be given the API server's port: it crashed on
 * EADDRINUSE at every restart and its node never became Ready.
 */
export async function freePorts(count: number, reserved: Iterable<number>, host = '127.0.0.1', bind: (host: string) => Promise<Server> = bindAny): Promise<number[]> {
  const skip = new Set([...reserved].filter((p) => p > 0));
  const held: Server[] = [];
  const ports: number[] = [];
  try {
    for (let tries = 0; ports.length < count; tries++) {
      if (tries > count + 1000) throw new Error(`no ${count} free ports on ${host}`);
      const srv = await bind(host);
      held.push(srv);
      const { port } = srv.address() as AddressInfo;
      if (!skip.has(port) && !ports.includes(port)) ports.push(port);
    }
    return ports;
  } finally {
    await Promise.all(held.map((s) => new Promise<void>((r) => s.close(() => r()))));
  }
}
