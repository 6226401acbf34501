/**
 * kube-apiserver's --advertise-address: the address the `kubernetes` Service's Endpoints carry, so
 * Pods in their own network namespace reach the API server through the ClusterIP 10.96.0.1:443
 * (the service proxy DNATs to it). Loopback is no such address: a Pod's 127.0.0.1 is its own.
 * The embedded API server puts it on a dummy link of the host (as the cluster DNS does its
 * address) and accepts TLS connections there as on its main address.
 */
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { Server } from 'node:https';
import { ensureHostAddress, removeHostLink } from '../network/host-link';

/** the dummy link that holds the advertise address */
export const ADVERTISE_LINK = 'kv-api0';

/**
 * Listens on address:port and hands every connection to the TLS server (same certificate, handlers
 * and upgrade listeners as the main address). Makes the address first; rejects when it cannot.
 */
export async function listenOnAdvertiseAddress(server: Server, address: string, port: number): Promise<TcpServer> {
  ensureHostAddress(ADVERTISE_LINK, address);
  const tcp = createTcpServer((socket: Socket) => server.emit('connection', socket));
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(port, address, () => resolve());
  });
  return tcp;
}

/** removes the link (and with it the address) when the API server stops */
export function removeAdvertiseLink(): void {
  removeHostLink(ADVERTISE_LINK);
}
