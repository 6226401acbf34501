/** Human formatting of ages, byte counts and durations (pure, browser and server). */
import { parseQuantity } from '../kubevirt';

/** `5s`, `3m`, `2h`, `4d` like kubectl's AGE column. */
export function formatAge(timestamp: string | undefined, now: number): string {
  if (!timestamp) return '—';
  const s = Math.max(0, Math.floor((now - Date.parse(timestamp)) / 1000));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.floor(s / 60)}m`;
  if (s < 172800) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** `512 MiB`, `1.5 GiB`. */
export function formatBytes(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '—';
  let v = n;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < UNITS.length - 1) { v /= 1024; i++; }
  return `${v >= 10 || i === 0 ? Math.round(v) : v.toFixed(1)} ${UNITS[i]}`;
}

/** A quantity string (`1Gi`) as bytes, or undefined when it does not parse. */
export function quantityBytes(q: string | number | undefined): number | undefined {
  if (q === undefined) return undefined;
  return parseQuantity(q);
}

/** `850 ms`, `12.3 s`, `4m 05s`. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m}m ${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}s`;
}
