/**
 * Live migration through QMP: the target listens (`-incoming defer` + migrate-incoming on a
 * free loopback port), the source sets capabilities/parameters and migrates; query-migrate is
 * flattened into MigrationInfo and polled for progress events.
 */
import { createServer } from 'node:net';
import type { MigrationInfo, MigrationParams } from '../protocol';
export { POSTCOPY_FAILED_MESSAGE } from '../protocol';
import type { QmpClient } from '../qmp-client';

export const MIGRATION_LISTEN_HOST = process.env.KV_MIGRATION_HOST ?? '127.0.0.1';
/**
 * In its own Pod namespace the launcher listens on fixed ports (KubeVirt's 49152/49153), which the
 * masquerade binding leaves out of the ports it forwards to the guest; on the host's loopback
 * (no pod network) ports are picked free.
 */
export const LAUNCHER_PORTS = { migration: 49152, nbd: 49153 } as const;
const ownNamespace = MIGRATION_LISTEN_HOST !== '127.0.0.1';

/** the port for a launcher listener: fixed in a Pod namespace, else a free one */
export function listenPort(which: keyof typeof LAUNCHER_PORTS): Promise<number> {
  return ownNamespace ? Promise.resolve(LAUNCHER_PORTS[which]) : findFreePort(MIGRATION_LISTEN_HOST);
}
/** pre-copy passes (QEMU's dirty-sync-count) after which the launcher switches to post-copy on its own */
const POSTCOPY_AFTER_SYNCS = 3;

/** A free TCP port on `host` (bound, read and released). */
export function findFreePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export async function startIncoming(qmp: QmpClient, opts: { allowPostCopy?: boolean }): Promise<{ host: string; port: number }> {
  if (opts.allowPostCopy) await qmp.execute('migrate-set-capabilities', { capabilities: [{ capability: 'postcopy-ram', state: true }] });
  const port = await listenPort('migration');
  await qmp.execute('migrate-incoming', { uri: `tcp:${MIGRATION_LISTEN_HOST}:${port}` });
  return { host: MIGRATION_LISTEN_HOST, port };
}

/** Migration state where the source waits (vCPUs stopped) for `migrate-continue` (capability pause-before-switchover). */
export const PRE_SWITCHOVER = 'pre-switchover';

export async function startOutgoing(qmp: QmpClient, opts: { host: string; port: number; params?: MigrationParams; pauseBeforeSwitchover?: boolean }): Promise<void> {
  const p = opts.params ?? {};
  await qmp.execute('migrate-set-capabilities', {
    capabilities: [
      { capability: 'events', state: true },
      { capability: 'auto-converge', state: p.allowAutoConverge === true },
      { capability: 'postcopy-ram', state: p.allowPostCopy === true },
      { capability: 'pause-before-switchover', state: opts.pauseBeforeSwitchover === true },
    ],
  });
  const parameters: Record<string, number> = {};
  // the policy's bandwidth caps the whole migration: QEMU has a separate cap for the post-copy phase
  if (p.bandwidthBytesPerSec !== undefined) parameters['max-bandwidth'] = parameters['max-postcopy-bandwidth'] = p.bandwidthBytesPerSec;
  if (p.downtimeMs !== undefined) parameters['downtime-limit'] = p.downtimeMs;
  if (Object.keys(parameters).length) await qmp.execute('migrate-set-parameters', parameters);
  await qmp.execute('migrate', { uri: `tcp:${opts.host}:${opts.port}` });
}

interface QueryMigrate {
  status?: string; 'total-time'?: number; 'expected-downtime'?: number; downtime?: number; 'setup-time'?: number;
  'error-desc'?: string;
  ram?: { transferred?: number; remaining?: number; total?: number; mbps?: number; 'dirty-pages-rate'?: number; 'dirty-sync-count'?: number; 'postcopy-requests'?: number };
}

export function toMigrationInfo(q: QueryMigrate): MigrationInfo {
  return {
    status: q.status ?? 'none', totalTimeMs: q['total-time'], expectedDowntimeMs: q['expected-downtime'], downtimeMs: q.downtime,
    setupTimeMs: q['setup-time'], transferredBytes: q.ram?.transferred, remainingBytes: q.ram?.remaining, totalBytes: q.ram?.total,
    mbps: q.ram?.mbps, dirtyPagesRate: q.ram?.['dirty-pages-rate'], dirtySyncCount: q.ram?.['dirty-sync-count'],
    postcopyRequests: q.ram?.['postcopy-requests'], errorDesc: q['error-desc'],
  };
}

export async function queryMigration(qmp: QmpClient): Promise<MigrationInfo> {
  return toMigrationInfo(await qmp.execute<QueryMigrate>('query-migrate'));
}

/** Switch to post-copy once pre-copy has gone round a few times without finishing. */
export function shouldStartPostcopy(info: MigrationInfo, params?: MigrationParams): boolean {
  return params?.allowPostCopy === true && info.status === 'active' && (info.dirtySyncCount ?? 0) >= POSTCOPY_AFTER_SYNCS;
}

export const FINAL_MIGRATION_STATES = new Set(['completed', 'failed', 'cancelled']);

/** QEMU's states after the switch to post-copy: running, and stopped because the other side is gone. */
export const POSTCOPY_ACTIVE = 'postcopy-active';
const POSTCOPY_BROKEN = new Set(['postcopy-paused', 'postcopy-recover']);
export const POSTCOPY_WAKE_STATES = [POSTCOPY_ACTIVE, ...POSTCOPY_BROKEN];


/**
 * After the switch to post-copy the guest's memory is split between both QEMUs: if the stream
 * breaks (QEMU pauses the migration, or fails it), neither side can run the guest again. We do not
 * try post-copy recovery, so either state means the guest is lost.
 */
export function isPostcopyLost(info: MigrationInfo, switched: boolean): boolean {
  return POSTCOPY_BROKEN.has(info.status) || (switched && info.status === 'failed');
}

