/**
 * Kubernetes resource quantities (`"1Gi"`, `"100m"`, `"1e3"`, `2`): parse to a number of base
 * units (bytes, cores). Browser-safe; used by admission and for display.
 */

/** The apimachinery grammar's error text for a malformed quantity. */
export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const QUANTITY_RE = /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$/;

const SUFFIX: Record<string, number> = {
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
  n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
};

/** Value of a quantity in base units, or undefined when it is not a valid quantity. */
export function parseQuantity(q: unknown): number | undefined {
  if (typeof q === 'number') return Number.isFinite(q) ? q : undefined;
  if (typeof q !== 'string' || q.length > 64) return undefined;
  const m = QUANTITY_RE.exec(q.trim());
  if (!m) return undefined;
  const base = Number(m[1]);
  const suffix = m[2] ?? '';
  const mult = /^[eE][+-]?[0-9]+$/.test(suffix) ? 10 ** Number(suffix.slice(1)) : SUFFIX[suffix];
  const v = base * mult;
  return Number.isFinite(v) ? v : undefined;
}

/** KubeVirt/apimachinery `Value()`: the quantity rounded up to an integer. */
export function quantityCeil(q: unknown): number | undefined {
  const v = parseQuantity(q);
  return v === undefined ? undefined : Math.ceil(v - 1e-9);
}

/** Bytes as a short binary string for display (`1Gi`, `512Mi`, `1.5Gi`). */
export function formatBytes(bytes: number): string {
  const units = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi'];
  let v = bytes;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) { v /= 1024; i += 1; }
  return `${Number.isInteger(v) ? v : v.toFixed(1)}${units[i]}`;
}

export const MIB = 2 ** 20;
const BINARY_UNITS: [string, number][] = [['Ti', 2 ** 40], ['Gi', 2 ** 30], ['Mi', 2 ** 20], ['Ki', 2 ** 10]];

/** Bytes (rounded up) → the shortest exact binary quantity (`1184Mi`, `2Gi`), or plain bytes when not a whole Ki: for Pod resources. */
export function formatBinaryQuantity(bytes: number): string {
  const n = Math.ceil(bytes);
  if (n === 0) return '0';
  for (const [suffix, size] of BINARY_UNITS) if (n % size === 0) return `${n / size}${suffix}`;
  return String(n);
}

/** Cores (rounded up to a millicore) → a CPU quantity (`100m`, `2`). */
export function formatCPUQuantity(cores: number): string {
  const milli = Math.ceil(cores * 1000);
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}
