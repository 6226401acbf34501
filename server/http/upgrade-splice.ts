/**
 * The two halves of a proxied protocol upgrade: the upstream's answer written back to the client as
 * it came (status line and raw headers), and, once both sides switched protocols, the two sockets
 * joined until either ends.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

export function rawResponseHead(res: IncomingMessage): string {
  const lines = [`HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage ?? ''}`];
  for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
  return lines.join('\r\n') + '\r\n\r\n';
}

/** relays the upstream's 101 and joins the sockets; bytes either side already read go first */
export function spliceUpgraded(client: Duplex, clientHead: Buffer, up: IncomingMessage, upSocket: Duplex, upHead: Buffer): void {
  client.write(rawResponseHead(up));
  if (upHead.length) client.write(upHead);
  if (clientHead.length) upSocket.write(clientHead);
  upSocket.pipe(client).pipe(upSocket);
  const close = () => { upSocket.destroy(); client.destroy(); };
  upSocket.on('error', close);
  client.on('error', close);
  upSocket.on('close', close);
  client.on('close', close);
}
