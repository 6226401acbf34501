import pino from 'pino';

/** The root logger; every component takes a child: `log.child({ component: 'virt-handler' })`. */
export const log = pino({
  level: process.env.KV_LOG_LEVEL ?? 'info',
  base: { pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
});

export type Logger = pino.Logger;
