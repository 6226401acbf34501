/**
 * `virtctl vnc VMI [--proxy-only] [--port N] [--address A] [--preserve-session]`: a local TCP port
 * any VNC viewer can connect to, piped to the VMI's VNC WebSocket. The WebSocket is opened first,
 * so a VMI that cannot be reached is an error before a port is printed. With --proxy-only the port
 * is printed as JSON (`{"port":N}`, what KubeVirt's virtctl prints for scripts); without it a
 * readable line. One viewer; the command ends when the viewer or the guest side closes.
 */
import net from 'node:net';
import { loadClientConfig } from '../client-config';
import { exactArgs, intFlag, parseFlags } from '../flags';
import { openStream } from '../stream-socket';
import { VirtctlError } from '../virtctl-error';
import type { Output } from '../output';

export async function vncCommand(argv: string[], out: Output, signal?: AbortSignal): Promise<void> {
  const { global, values, positionals } = parseFlags(argv, {
    'proxy-only': { type: 'boolean' }, port: { type: 'string' }, address: { type: 'string' }, 'preserve-session': { type: 'boolean' },
    'vnc-type': { type: 'string' }, 'vnc-path': { type: 'string' },
  });
  const [name] = exactArgs(positionals, 1);
  const port = intFlag(values, 'port') ?? 0;
  const proxyOnly = values['proxy-only'] === true;
  const address = proxyOnly && typeof values.address === 'string' ? values.address : '127.0.0.1';
  const { kc, namespace } = loadClientConfig(global);
  let ws;
  try {
    ws = await openStream(kc, namespace, name, 'vnc', values['preserve-session'] === true ? '?preserveSession=true' : '');
  } catch (err) {
    throw new VirtctlError(`can't access VMI ${name}: ${err instanceof Error ? err.message : String(err)}`);
  }
  // the guest's RFB greeting arrives at once; keep it for the viewer that connects later
  const early: Buffer[] = [];
  const keep = (data: Buffer) => early.push(data);
  ws.on('message', keep);
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(new VirtctlError(`can't listen on ${address}:${port}: ${err.message}`)));
    server.listen(port, address, resolve);
  }).catch((err: unknown) => { ws.close(); throw err; });
  const bound = (server.address() as net.AddressInfo).port;
  out.stdout(proxyOnly ? `${JSON.stringify({ port: bound })}\n` : `VNC of ${name} on ${address}:${bound}: connect a VNC viewer there (Ctrl+C stops)\n`);
  await new Promise<void>((resolve) => {
    const done = () => { server.close(); ws.close(); resolve(); };
    signal?.addEventListener('abort', done, { once: true });
    ws.on('close', done);
    server.once('connection', (sock) => {
      server.close(); // one viewer per session, as KubeVirt's proxy
      ws.off('message', keep);
      for (const data of early.splice(0)) sock.write(data);
      ws.on('message', (data: Buffer) => sock.write(data));
      sock.on('data', (data) => ws.send(data));
      sock.on('close', done);
      sock.on('error', done);
      ws.on('close', () => sock.destroy());
    });
  });
}
