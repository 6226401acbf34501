import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { findAPIService, proxyUpgradeToAPIService } from './aggregation';
import type { ApiContext } from './rest/api-context';
import { parseRequestInfo } from './rest/request-info';
import { isPodPortForward, proxyPodPortForward } from './rest/connect/pod-port-forward';
import { pathNotFound, toStatusError, unauthorized } from './rest/status-error';
import { authorizeRequest } from './request-authz';
import { impersonatedUser } from './rbac/impersonation';
import { authenticate, type TokenFile } from './tokens';

/** refuses an upgrade with a plain HTTP response carrying kube's Status */
function refuseUpgrade(socket: Duplex, err: unknown): void {
  const se = toStatusError(err);
  const body = JSON.stringify(se.toStatus());
  socket.end(`HTTP/1.1 ${se.code} ${se.reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/** WebSocket/SPDY upgrades: pods/portforward (to the Pod's kubelet) and aggregated APIs (virt-api's vnc/console) */
export function createUpgradeListener(ctx: ApiContext, tokens: TokenFile) {
  return (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    try {
      const info = parseRequestInfo(req.method ?? 'GET', req.url ?? '/');
      const signedIn = authenticate(tokens, req);
      if (!signedIn) throw unauthorized();
      const user = impersonatedUser(ctx, signedIn, req);
      if (isPodPortForward(info)) {
        authorizeRequest(ctx, user, info);
        // kube 1.30+ (AuthorizePodWebsocketUpgradeCreatePermission): a WebSocket's GET needs create too
        if (info.verb !== 'create') authorizeRequest(ctx, user, { ...info, verb: 'create' });
        return proxyPodPortForward(ctx, info, req, socket, head, (err) => refuseUpgrade(socket, err));
      }
      const svc = info.apiPrefix === 'apis' ? findAPIService(ctx.apiservices, info.group, info.version) : undefined;
      if (!svc) throw pathNotFound();
      authorizeRequest(ctx, user, info);
      proxyUpgradeToAPIService(svc, req, socket, head, user);
    } catch (err) {
      refuseUpgrade(socket, err);
    }
  };
}
