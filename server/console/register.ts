/**
 * The console's browser-facing server parts, registered on the custom server: the session key
 * (shared with Next's route handlers through the environment) and the WebSocket routes.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { UpgradeHandler } from './main';
import { newSessionKey, SESSION_KEY_ENV } from './session-cookie';
import { createStreamUpgradeHandler } from './stream-proxy';
import { createWatchUpgradeHandler } from './watch-socket';

/** A stable key in DIR/console/session.key (sessions survive a console restart), else a fresh one. */
export function ensureSessionKey(dataDir: string | undefined): void {
  if (process.env[SESSION_KEY_ENV]) return;
  if (!dataDir) {
    process.env[SESSION_KEY_ENV] = newSessionKey();
    return;
  }
  const file = join(dataDir, 'console', 'session.key');
  if (!existsSync(file)) {
    mkdirSync(join(dataDir, 'console'), { recursive: true, mode: 0o700 });
    writeFileSync(file, newSessionKey(), { mode: 0o600 });
  }
  process.env[SESSION_KEY_ENV] = readFileSync(file, 'utf8').trim();
}

export function registerConsole(addUpgradeRoute: (prefix: string, handle: UpgradeHandler) => void, dataDir: string | undefined): void {
  ensureSessionKey(dataDir);
  addUpgradeRoute('/ws/watch', createWatchUpgradeHandler());
  const streams = createStreamUpgradeHandler();
  addUpgradeRoute('/ws/vnc/', streams);
  addUpgradeRoute('/ws/console/', streams);
}
