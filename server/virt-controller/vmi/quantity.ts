/**
 * Kubernetes resource quantities (memory and CPU) as numbers, and back.
 * Only what launcher-pod sizing needs: binary (Ki..Ei) and decimal (k..E, m) suffixes.
 */
const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
const QUANTITY = /^([+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?)([KMGTPE]i|[mkMGTPE])?$/;

export const MIB = 2 ** 20;

/** Parses "128Mi", "1G", "500m", 2 → a number (bytes or cores); undefined when malformed. */
export function parseQuantity(q: string | number | undefined): number | undefined {
  if (q === undefined) return undefined;
  if (typeof q === 'number') return Number.isFinite(q) ? q : undefined;
  const m = QUANTITY.exec(q.trim());
  if (!m) return undefined;
  const value = Number(m[1]);
  if (!Number.isFinite(value)) return undefined;
  const suffix = m[2] ?? '';
  const factor = BINARY[suffix] ?? DECIMAL[suffix];
  return factor === undefined ? undefined : value * factor;
}

/** Bytes → the shortest exact binary quantity ("1184Mi", "2Gi"), or plain bytes when not a whole Ki. */
export function formatBytes(bytes: number): string {
  const n = Math.ceil(bytes);
  for (const suffix of ['Ti', 'Gi', 'Mi', 'Ki'] as const) {
    if (n % BINARY[suffix] === 0) return `${n / BINARY[suffix]}${suffix}`;
  }
  return String(n);
}

/** Cores → millicores quantity ("100m", "2"). */
export function formatCPU(cores: number): string {
  const milli = Math.ceil(cores * 1000);
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}
