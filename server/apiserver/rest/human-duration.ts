/** kube's duration.HumanDuration: "5s", "3m20s", "2d3h", "5y" */
export function humanDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 0) return '0s';
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(s / 3600);
  if (h < 8) return m % 60 === 0 ? `${h}h` : `${h}h${m % 60}m`;
  if (h < 48) return `${h}h`;
  if (h < 192) return h % 24 === 0 ? `${Math.floor(h / 24)}d` : `${Math.floor(h / 24)}d${h % 24}h`;
  if (h < 24 * 365 * 2) return `${Math.floor(h / 24)}d`;
  if (h < 24 * 365 * 8) return `${Math.floor(h / 24 / 365)}y${Math.floor(h / 24) % 365}d`;
  return `${Math.floor(h / 24 / 365)}y`;
}

/** the AGE cell of an object */
export function ageOf(timestamp: string | undefined, now = Date.now()): string {
  if (!timestamp) return '<unknown>';
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? '<invalid>' : humanDuration(now - t);
}
