/** An open browser socket ends when its session is revoked (sign-out), not at its next request. */
import type { WebSocket } from 'ws';
import { consoleSessions } from './console-sessions';

/** the close code a browser socket gets when its session was signed out */
export const CLOSE_SIGNED_OUT = 4401;

export function closeOnSignOut(ws: WebSocket, sessionId: string): void {
  const off = consoleSessions().onRevoke(sessionId, () => {
    if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(CLOSE_SIGNED_OUT, 'signed out');
  });
  ws.once('close', off);
}
