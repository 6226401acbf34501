/**
 * The console's browser-facing server parts, registered on the custom server: the session store
 * (shared with Next's route handlers through the environment) and the WebSocket routes.
 */
import { consoleSessions, ensureSessionStoreFile } from './console-sessions';
import type { UpgradeHandler } from './main';
import { createStreamUpgradeHandler } from './stream-proxy';
import { createWatchUpgradeHandler } from './watch-socket';

export function registerConsole(addUpgradeRoute: (prefix: string, handle: UpgradeHandler) => void, dataDir: string | undefined): void {
  ensureSessionStoreFile(dataDir); // DIR/console/sessions.db: sessions survive a console restart
  consoleSessions();
  addUpgradeRoute('/ws/watch', createWatchUpgradeHandler());
  const streams = createStreamUpgradeHandler();
  addUpgradeRoute('/ws/vnc/', streams);
  addUpgradeRoute('/ws/console/', streams);
}
