/** A CLI duration flag (`90s`, `5m`, `8h`, `1h30m`, `2d`, or plain seconds) in seconds; bad input is a clear error. */
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

export function parseDurationFlag(flag: string, raw: string, bounds: { min?: number; max?: number } = {}): number {
  const text = raw.trim();
  let seconds: number | undefined;
  if (/^\d+$/.test(text)) seconds = Number(text);
  else if (/^(\d+[smhd])+$/.test(text)) seconds = [...text.matchAll(/(\d+)([smhd])/g)].reduce((sum, m) => sum + Number(m[1]) * UNIT_SECONDS[m[2]!]!, 0);
  const min = bounds.min ?? 1;
  const max = bounds.max ?? Number.MAX_SAFE_INTEGER;
  if (seconds === undefined || seconds < min || seconds > max) {
    throw new Error(`${flag} must be a duration such as 90s, 5m, 8h or 1h30m${bounds.min || bounds.max ? ` between ${min}s and ${max}s` : ''}, got "${raw}"`);
  }
  return seconds;
}
