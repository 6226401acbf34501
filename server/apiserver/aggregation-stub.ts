import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { UserInfo } from './authz';
import { sendError } from './rest/http-io';
import { StatusError } from './rest/status-error';

/** Stand-ins for aggregation/index.ts until it lands. */
export function findAPIServiceStub(apiservices: any[], group: string, version: string): any | undefined {
  return apiservices.find((s) => s.spec?.group === group && s.spec?.version === version && s.spec?.service);
}

export function proxyToAPIServiceStub(svc: any, _req: IncomingMessage, res: ServerResponse, _user: UserInfo): void {
  sendError(res, new StatusError(503, 'ServiceUnavailable', `the server is currently unable to handle the request (${svc.metadata?.name})`));
}

export function proxyUpgradeToAPIServiceStub(_svc: any, _req: IncomingMessage, socket: Duplex, _head: Buffer, _user: UserInfo): void {
  socket.destroy();
}
