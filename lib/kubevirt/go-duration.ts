/**
 * PURE: Go's time.ParseDuration, as KubeVirt's metav1.Duration fields take it (`5m`, `1h30m`,
 * `300ms`, `1.5s`): milliseconds, or undefined for anything Go would refuse.
 */
const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;

export function parseGoDuration(text: string): number | undefined {
  let rest = text.trim();
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (!rest) return undefined;
  PART.lastIndex = 0;
  let total = 0;
  let consumed = 0;
  let m: RegExpExecArray | null;
  while ((m = PART.exec(rest)) !== null) {
    total += Number(m[1]) * UNIT_MS[m[2]];
    consumed = PART.lastIndex;
  }
  return consumed === rest.length ? sign * total : undefined;
}
