/**
 * Watches an outgoing migration: polls query-migrate for progress every POLL_MS, and checks at
 * once when QEMU announces a state change (the MIGRATION event, capability `events`), so the end
 * of a migration is seen within milliseconds rather than up to a poll period late. Each result
 * goes to `onInfo`; the monitor stops itself after the first final state.
 */
import type { Domain } from '../domain';
import { FINAL_MIGRATION_STATES, queryMigration } from './domain-migration';
import type { MigrationInfo } from '../protocol';
import type { QmpEvent } from '../qmp-client';

export const MIGRATION_POLL_MS = 500;
/** QEMU announces `completed` a moment before it fills in total-time and downtime: ask again this soon. */
const FIGURES_RETRY_MS = 10;
const FIGURES_RETRIES = 20;
const MIGRATION_EVENT = 'MIGRATION';

export interface MigrationMonitor { stop(): void }

/** `wakeOn`: further MIGRATION event states to look at at once (besides the final ones). */
export function monitorMigration(d: Domain, onInfo: (info: MigrationInfo) => Promise<void>, wakeOn: string[] = []): MigrationMonitor {
  const qmp = d.requireQmp();
  let stopped = false;
  let busy = false;
  let again = false;
  let figureRetries = 0;
  const stop = () => {
    stopped = true;
    clearInterval(timer);
    d.off('qmpEvent', onEvent);
  };
  const check = async (): Promise<void> => {
    if (stopped) return;
    if (busy) { again = true; return; }
    busy = true;
    try {
      const info = await queryMigration(qmp);
      if (stopped) return;
      if (info.status === 'completed' && !info.totalTimeMs && figureRetries++ < FIGURES_RETRIES) {
        busy = false;
        setTimeout(() => void check(), FIGURES_RETRY_MS);
        return;
      }
      if (FINAL_MIGRATION_STATES.has(info.status)) stop();
      await onInfo(info);
    } catch { /* the next tick or event tries again; the domain's exit stops us */ }
    busy = false;
    if (again) { again = false; void check(); }
  };
  const onEvent = (e: QmpEvent) => {
    const status = String(e.data?.status);
    if (e.event === MIGRATION_EVENT && (FINAL_MIGRATION_STATES.has(status) || wakeOn.includes(status))) void check();
  };
  d.on('qmpEvent', onEvent);
  const timer = setInterval(() => void check(), MIGRATION_POLL_MS);
  return { stop };
}
