import type { Duplex } from 'node:stream';
import { rejectUpgrade as rejectUpgradeWithStatus, statusError } from '../http/status-error';

/** Answers a WebSocket upgrade with an HTTP error (a Status) before any upgrade happened. */
export function rejectUpgrade(socket: Duplex, code: number, message: string): void {
  rejectUpgradeWithStatus(socket, statusError(code, message));
}
