import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';

/** Answers a WebSocket upgrade with a plain HTTP error before any upgrade happened. */
export function rejectUpgrade(socket: Duplex, code: number, message: string): void {
  const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, message });
  socket.end(`HTTP/1.1 ${code} ${STATUS_CODES[code] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
