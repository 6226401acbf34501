/**
 * Liveness as the kubelet does it for a container: probe every `periodMs`, each probe bounded by
 * `timeoutMs`; after `failureThreshold` failures in a row the component is declared hung. Probing
 * failures count from the first success (a component still starting is not hung; until then it
 * is probed every 250 ms) or after `initialDelayMs`, whichever comes first.
 */
export interface LivenessProbe {
  /** resolves true when the component answered in time */
  check: (timeoutMs: number) => Promise<boolean>;
  periodMs?: number;
  timeoutMs?: number;
  failureThreshold?: number;
  initialDelayMs?: number;
}

/** until its first answer a component is probed often, so one that hangs right after starting is caught too */
const STARTUP_PERIOD_MS = 250;

export const LIVENESS_DEFAULTS = { periodMs: 2000, timeoutMs: 1000, failureThreshold: 3, initialDelayMs: 60_000 };

/** runs the probe until `signal` aborts; calls `onHung` once when the threshold is crossed */
export function watchLiveness(probe: LivenessProbe, signal: AbortSignal, onHung: (failures: number) => void): void {
  const o = { ...LIVENESS_DEFAULTS, ...probe };
  const startedAt = Date.now();
  let armed = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    if (signal.aborted) return;
    const ok = await o.check(o.timeoutMs).catch(() => false);
    if (signal.aborted) return;
    if (ok) { armed = true; failures = 0; }
    else if (armed || Date.now() - startedAt >= o.initialDelayMs) {
      armed = true;
      failures++;
      if (failures >= o.failureThreshold) return onHung(failures);
    }
    timer = setTimeout(() => void tick(), armed ? o.periodMs : Math.min(o.periodMs, STARTUP_PERIOD_MS));
  };
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  timer = setTimeout(() => void tick(), Math.min(o.periodMs, STARTUP_PERIOD_MS));
}
