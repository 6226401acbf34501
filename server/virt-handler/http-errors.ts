/** virt-handler's errors: the one StatusError (server/http), with kube's reason for each code. */
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { asStatusError, reasonForCode, rejectUpgrade as rejectUpgradeWithStatus, StatusError, writeStatus } from '../http/status-error';

/** `new HttpError(404, 'not found')`: a StatusError whose reason follows from its code */
export class HttpError extends StatusError {
  constructor(code: number, message: string, reason = reasonForCode(code)) {
    super(code, reason, message);
  }
}

export function sendError(res: ServerResponse, err: unknown): void {
  writeStatus(res, asStatusError(err));
}

/** Refuse a WebSocket upgrade with an HTTP status (validated before upgrading, like KubeVirt's proxy). */
export function rejectUpgrade(socket: Duplex, err: unknown): void {
  rejectUpgradeWithStatus(socket, asStatusError(err));
}
