/**
 * `virtctl port-forward TYPE/NAME[.NAMESPACE] [udp/]PORT[:REMOTE]... [--address A] [--stdio]`: each
 * connection to a local port opens its own `portforward/<remote>/tcp` WebSocket to the guest; a UDP
 * port opens one `portforward/<remote>/udp` WebSocket per client address (as virtctl does), a
 * datagram per message each way. With
 * --stdio one port is carried over stdin/stdout (ssh's ProxyCommand). The VM or VMI is looked up
 * before the ports are announced, so a wrong name is an error at once; a guest port that is not
 * listening yet only fails the connection that tried it (as kubectl port-forward behaves).
 */
import { createSocket, type RemoteInfo } from 'node:dgram';
import net from 'node:net';
import type { KubeConfig } from '@kubernetes/client-node';
import { resourcePath, VirtualMachineInstanceResource, VirtualMachineResource } from '../../../lib/kubevirt/resources';
import { messageOf } from '../../kube/api-errors';
import { apiRequest } from '../api-request';
import { loadClientConfig } from '../client-config';
import { parseFlags } from '../flags';
import { openStream } from '../stream-socket';
import { UsageError, VirtctlError } from '../virtctl-error';
import type { Output } from '../output';
import { parseForwardTarget, parsePortPair, type ForwardTarget, type PortPair } from './port-forward-target';

interface Dialer { kc: KubeConfig; namespace: string; target: ForwardTarget }

const resourceOf = (t: ForwardTarget) => (t.kind === 'vm' ? VirtualMachineResource : VirtualMachineInstanceResource);

function dial(d: Dialer, remote: number, protocol: 'tcp' | 'udp' = 'tcp') {
  return openStream(d.kc, d.namespace, d.target.name, `portforward/${remote}/${protocol}`, '', resourceOf(d.target)).catch((err: unknown) => {
    throw new VirtctlError(`can't access ${d.target.kind}/${d.target.name}: ${err instanceof Error ? err.message : String(err)}`);
  });
}

function splice(sock: NodeJS.ReadableStream & { destroy?: () => void }, write: (b: Buffer) => void, ws: Awaited<ReturnType<typeof dial>>, end: () => void): void {
  ws.on('message', (data: Buffer) => write(data));
  sock.on('data', (data: Buffer) => ws.send(data));
  sock.on('end', () => ws.close());
  sock.on('error', () => ws.close());
  ws.on('close', end);
}

type Closable = { close(): void };

/** a local UDP port: each client address gets its own stream to the guest's port */
async function listenUdp(d: Dialer, pair: PortPair, address: string, out: Output): Promise<Closable> {
  const sock = createSocket('udp4');
  const clients = new Map<string, Promise<Awaited<ReturnType<typeof dial>>>>();
  const streamFor = (from: RemoteInfo) => {
    const id = `${from.address}:${from.port}`;
    let ws = clients.get(id);
    if (!ws) {
      ws = dial(d, pair.remote, 'udp');
      clients.set(id, ws);
      ws.then((s) => {
        s.on('message', (data: Buffer) => sock.send(data, from.port, from.address));
        s.on('close', () => clients.delete(id));
      }, (err: unknown) => { out.stderr(`${(err as Error).message}\n`); clients.delete(id); });
    }
    return ws;
  };
  sock.on('message', (msg, from) => { streamFor(from).then((s) => s.send(msg), () => undefined); });
  await new Promise<void>((resolve, reject) => {
    sock.once('error', (err) => reject(new VirtctlError(`can't listen on ${address}:${pair.local}: ${err.message}`)));
    sock.bind(pair.local, address, () => resolve());
  });
  out.stdout(`Forwarding from ${address}:${sock.address().port} -> ${pair.remote}\n`);
  return { close: () => { for (const ws of clients.values()) ws.then((s) => s.close(), () => undefined); sock.close(); } };
}

async function listen(d: Dialer, pair: PortPair, address: string, out: Output): Promise<Closable> {
  if (pair.protocol === 'udp') return listenUdp(d, pair, address, out);
  const server = net.createServer((sock) => {
    sock.pause();
    dial(d, pair.remote).then((ws) => {
      splice(sock, (b) => sock.write(b), ws, () => sock.end());
      sock.resume();
    }, (err: unknown) => { out.stderr(`${(err as Error).message}\n`); sock.destroy(); });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err) => reject(new VirtctlError(`can't listen on ${address}:${pair.local}: ${err.message}`)));
    server.listen(pair.local, address, resolve);
  });
  const bound = (server.address() as net.AddressInfo).port;
  out.stdout(`Forwarding from ${address}:${bound} -> ${pair.remote}\n`);
  return server;
}

export async function portForwardCommand(argv: string[], out: Output, signal?: AbortSignal): Promise<void> {
  const { global, values, positionals } = parseFlags(argv, { address: { type: 'string' }, stdio: { type: 'boolean' } });
  if (positionals.length < 2) throw new UsageError('expected TYPE/NAME[.NAMESPACE] and at least one port');
  const target = parseForwardTarget(positionals[0]);
  const pairs = positionals.slice(1).map(parsePortPair);
  const { kc, namespace } = loadClientConfig({ ...global, namespace: target.namespace ?? global.namespace });
  const d: Dialer = { kc, namespace, target };
  if (values.stdio === true) {
    if (pairs.length !== 1 || pairs[0].protocol !== 'tcp') throw new UsageError('--stdio forwards exactly one tcp port');
    const ws = await dial(d, pairs[0].remote);
    return new Promise<void>((resolve) => splice(process.stdin, (b) => process.stdout.write(b), ws, resolve));
  }
  await apiRequest(kc, 'GET', resourcePath(resourceOf(target), { namespace, name: target.name })).catch((err: unknown) => {
    throw new VirtctlError(`can't access ${target.kind}/${target.name}: ${messageOf(err)}`);
  });
  const address = typeof values.address === 'string' ? values.address : '127.0.0.1';
  const servers = await Promise.all(pairs.map((p) => listen(d, p, address, out)));
  await new Promise<void>((resolve) => {
    const stop = () => { servers.forEach((s) => s.close()); resolve(); };
    if (signal) signal.addEventListener('abort', stop, { once: true });
    else process.once('SIGINT', stop);
  });
}
