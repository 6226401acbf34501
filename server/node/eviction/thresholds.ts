/**
 * PURE: the kubelet's hard eviction thresholds (`--eviction-hard memory.available<100Mi,nodefs.available<10%`):
 * parsed, checked against what the node observes, and rendered for messages.
 */
import { formatBinaryQuantity, parseQuantity } from '../../../lib/kubevirt/quantity';

/** The signals this kubelet observes (kube has more: imagefs, inodes, pid). */
export type EvictionSignal = 'memory.available' | 'nodefs.available';
export const EVICTION_SIGNALS: readonly EvictionSignal[] = ['memory.available', 'nodefs.available'];

/** One `signal<value` statement: a quantity (bytes) or a percentage of capacity. */
export interface EvictionThreshold {
  signal: EvictionSignal;
  /** bytes, when the statement gave a quantity */
  quantity?: number;
  /** 0..1, when the statement gave a percentage */
  percentage?: number;
  /** the statement's value as written (`100Mi`, `10%`) */
  text: string;
}

/** kubelet's defaults (DefaultEvictionHard, on Linux, without imagefs/inodes which we do not observe). */
export const DEFAULT_EVICTION_HARD = 'memory.available<100Mi,nodefs.available<10%';

/** What one pass of the eviction manager observes for a signal: available and (for percentages) capacity. */
export interface SignalObservation {
  available: number;
  capacity?: number;
}
export type Observations = Partial<Record<EvictionSignal, SignalObservation>>;

/** The resource a signal starves (kube's signalToResource): named in the eviction message. */
export const SIGNAL_RESOURCE: Record<EvictionSignal, 'memory' | 'ephemeral-storage'> = {
  'memory.available': 'memory',
  'nodefs.available': 'ephemeral-storage',
};

export class EvictionThresholdError extends Error {}

/**
 * Parse `--eviction-hard` (kube's grammar: comma-separated `signal<value`; only `<`; a value is a
 * quantity or a percentage in (0%, 100%]). An empty string means no thresholds at all.
 */
export function parseEvictionHard(spec: string): EvictionThreshold[] {
  const out: EvictionThreshold[] = [];
  for (const raw of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([a-z.]+)\s*(<|>|<=|>=|=)\s*(.+)$/.exec(raw);
    if (!m) throw new EvictionThresholdError(`invalid eviction threshold syntax ${raw}, expected <signal><operator><value>`);
    const [, signal, op, value] = m;
    if (!(EVICTION_SIGNALS as readonly string[]).includes(signal)) throw new EvictionThresholdError(`unsupported eviction signal ${signal}`);
    if (op !== '<') throw new EvictionThresholdError(`invalid operator ${op} for eviction threshold ${raw}: only < is supported`);
    if (out.some((t) => t.signal === signal)) throw new EvictionThresholdError(`found duplicate eviction threshold for signal ${signal}`);
    out.push({ signal: signal as EvictionSignal, text: value, ...parseValue(value) });
  }
  return out;
}

function parseValue(value: string): { quantity?: number; percentage?: number } {
  if (value.endsWith('%')) {
    const pct = Number(value.slice(0, -1));
    if (!Number.isFinite(pct) || value.slice(0, -1).trim() === '') throw new EvictionThresholdError(`invalid percentage ${value}`);
    if (pct <= 0 || pct > 100) throw new EvictionThresholdError(`eviction percentage threshold must be > 0% and <= 100%: ${value}`);
    return { percentage: pct / 100 };
  }
  const q = parseQuantity(value);
  if (q === undefined) throw new EvictionThresholdError(`invalid eviction threshold value ${value}: not a quantity or a percentage`);
  if (q < 0) throw new EvictionThresholdError(`eviction threshold must be positive: ${value}`);
  return { quantity: q };
}

/** The threshold's value in bytes for this observation (a percentage needs the capacity). */
export function thresholdBytes(t: EvictionThreshold, o: SignalObservation | undefined): number | undefined {
  if (t.quantity !== undefined) return t.quantity;
  return o?.capacity ? Math.round(o.capacity * (t.percentage ?? 0)) : undefined;
}

/** The thresholds crossed now (available < threshold); a signal without an observation never is. */
export function thresholdsMet(thresholds: EvictionThreshold[], obs: Observations): EvictionThreshold[] {
  return thresholds.filter((t) => {
    const o = obs[t.signal];
    const limit = thresholdBytes(t, o);
    return o !== undefined && limit !== undefined && o.available < limit;
  });
}

/** kube's "Threshold quantity: 100Mi, available: 51200Ki. " part of an eviction message. */
export function thresholdMetText(t: EvictionThreshold, o: SignalObservation | undefined): string {
  const limit = thresholdBytes(t, o);
  if (limit === undefined || !o) return '';
  const quantity = t.quantity !== undefined ? t.text : formatBinaryQuantity(limit);
  return `Threshold quantity: ${quantity}, available: ${formatBinaryQuantity(Math.max(0, o.available))}. `;
}
