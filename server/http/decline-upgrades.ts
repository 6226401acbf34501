/**
 * For HTTP servers that serve no protocol upgrade (the kubelet API, the upload server, metrics):
 * a request asking to upgrade (`Connection: Upgrade`) gets a 400 at once and its connection closed.
 * Without an 'upgrade' listener Node answers such a request normally but then stops reading the
 * connection, so a keep-alive client's next request on it waits for the idle timeout (found by the
 * HTTP fuzz: 6 s per such request on the kubelet API and the upload proxy).
 */
import type { Server } from 'node:http';
import { rejectUpgrade, StatusError } from './status-error';

export function declineUpgrades(server: Server): void {
  server.on('upgrade', (_req, socket) => {
    socket.on('error', () => undefined);
    rejectUpgrade(socket, new StatusError(400, 'BadRequest', 'this endpoint does not upgrade connections'));
  });
}
