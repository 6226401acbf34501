/**
 * Liveness of a supervised component: a probe is sent every `periodMs`, and each may take up to
 * `windowMs` to be answered; the component is declared hung when no probe has been answered for
 * `windowMs` (from its last answer, or, if it never answered, from `initialDelayMs` after start).
 *
 * Why not the kubelet's "N timeouts of 1 s in a row": on a loaded 2-core machine (TCG guests
 * booting beside the control plane) a healthy component's /healthz took up to 5 s to answer, and
 * three 1 s timeouts got the whole controller process killed mid-work, again and again. A late
 * answer is a sign of life; only silence for the whole window is a hang (a stopped process, an
 * endless loop). Probes overlap, so a hang is still noticed within `windowMs` + `periodMs`.
 * The verdict is taken after pending I/O is read (setImmediate), so an answer that arrived while the
 * supervisor itself was busy is not mistaken for silence.
 */
export interface LivenessProbe {
  /** resolves true when the component answered within `timeoutMs` */
  check: (timeoutMs: number) => Promise<boolean>;
  periodMs?: number;
  windowMs?: number;
  initialDelayMs?: number;
}

/** until its first answer a component is probed often, so one that hangs right after starting is caught too */
const STARTUP_PERIOD_MS = 250;

export const LIVENESS_DEFAULTS = { periodMs: 1000, windowMs: 12_000, initialDelayMs: 60_000 };

/** runs the probe until `signal` aborts; calls `onHung` once, with the silence in ms, when the window passes unanswered */
export function watchLiveness(probe: LivenessProbe, signal: AbortSignal, onHung: (silentMs: number) => void): void {
  const o = { ...LIVENESS_DEFAULTS, ...probe };
  const startedAt = Date.now();
  let lastAnswer: number | undefined;
  let inFlight = 0;
  let timer: NodeJS.Timeout | undefined;
  const maxInFlight = Math.max(1, Math.ceil(o.windowMs / o.periodMs));
  const send = () => {
    if (inFlight >= maxInFlight) return;
    inFlight++;
    o.check(o.windowMs).catch(() => false).then((ok) => {
      inFlight--;
      if (ok) lastAnswer = Math.max(lastAnswer ?? 0, Date.now());
    });
  };
  const judge = () => {
    if (signal.aborted) return;
    // never answered: the window ends `initialDelayMs` after the start
    const since = lastAnswer ?? startedAt + o.initialDelayMs - o.windowMs;
    // the verdict is final: no further probe is scheduled
    if (Date.now() - since >= o.windowMs) return onHung(Date.now() - (lastAnswer ?? startedAt));
    schedule();
  };
  const schedule = () => {
    timer = setTimeout(() => { send(); setImmediate(judge); }, lastAnswer === undefined ? Math.min(o.periodMs, STARTUP_PERIOD_MS) : o.periodMs);
  };
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  schedule();
}
