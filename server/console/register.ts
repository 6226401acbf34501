/**
 * The console's browser-facing server parts, registered on the custom server: the session store
 * (shared with Next's route handlers through the environment) and the WebSocket routes.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { consoleSessions, ensureSessionStoreFile } from './console-sessions';
import type { UpgradeHandler } from './main';
import { createStreamUpgradeHandler } from './stream-proxy';
import { createWatchUpgradeHandler } from './watch-socket';

export function registerConsole(addUpgradeRoute: (prefix: string, handle: UpgradeHandler) => void, dataDir: string | undefined): void {
  ensureSessionStoreFile(dataDir); // DIR/console/sessions.db: sessions survive a console restart
  if (dataDir) rmSync(join(dataDir, 'console', 'session.key'), { force: true }); // the sealed-cookie key of older versions: no longer a secret worth keeping
  consoleSessions();
  addUpgradeRoute('/ws/watch', createWatchUpgradeHandler());
  const streams = createStreamUpgradeHandler();
  addUpgradeRoute('/ws/vnc/', streams);
  addUpgradeRoute('/ws/console/', streams);
}
