/**
 * A `kv` component's start-up (parsing CRDs, first LISTs of every object) leaves tens of MiB of
 * garbage in V8's old space that V8 keeps as RSS for as long as the process lives (the API server:
 * 15 MiB live in 110 MiB of RSS). One full collection after start-up gives it back
 * (docs/performance.md, "Footprint"). Only when the process was started with --expose-gc, as
 * `kv up` starts its components; the timers never keep a process alive.
 */
const AFTER_START_MS = [10_000, 60_000];

export function compactAfterStartup(delaysMs = AFTER_START_MS): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') return;
  for (const ms of delaysMs) setTimeout(() => gc(), ms).unref();
}
