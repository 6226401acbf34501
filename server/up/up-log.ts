import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import type { Logger } from '../log';

/**
 * `kv up` talks to two audiences: people get a few plain lines on stdout (`say`), and the
 * structured log of everything goes to DIR/logs/up.log next to each component's log.
 */
export function createUpLog(logsDir: string): { log: Logger; say: (line: string) => void } {
  mkdirSync(logsDir, { recursive: true });
  const log = pino(
    { level: process.env.KV_LOG_LEVEL ?? 'info', base: { component: 'kv-up' }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination({ dest: join(logsDir, 'up.log'), sync: true, mkdir: true }),
  );
  const say = (line: string) => {
    process.stdout.write(`${line}\n`);
    log.info(line);
  };
  return { log, say };
}
