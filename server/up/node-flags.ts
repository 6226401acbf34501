/**
 * V8's young generation grows to 3 × 16 MiB semi-spaces in a busy process and rarely gives the
 * pages back: about 30 MiB of RSS per component (docs/performance.md, "Footprint"). Components whose
 * allocation rate is modest run with 2 MiB semi-spaces (more, shorter scavenges). The API server
 * keeps V8's default: its creates/s and watch latency are measured goals.
 */
export const SMALL_YOUNG_GENERATION = ['--max-semi-space-size=2'];

/**
 * The API server's V8 tiering budget, 4× V8's default (67,584 bytecode bytes run before a function
 * is considered for optimisation). An API server runs a wide spread of code paths (every kind,
 * admission, watch encoding) a few hundred times each; at the default budget TurboFan compiled many
 * of them while they were still warming up, and those compiles (on V8's worker threads, in the
 * process's CPU) were ~25 % of its CPU in a 10-VMI start (`--no-opt` measured the share). At 4×
 * only paths that stay hot are optimised: API server CPU per paused VMI start median 45 → 34 ms,
 * server CPU per create 0.53–0.59 → 0.42–0.44 ms. 8× saved a little more CPU but made creates/s
 * and watch latency erratic (code left unoptimised longer). docs/performance.md, "API server: V8's
 * tiering budget".
 */
export const API_SERVER_FLAGS = ['--interrupt-budget=262144'];

/** every component: lets it give back its start-up garbage once started (server/startup-gc.ts) */
export const COMPONENT_FLAGS = ['--expose-gc'];

/**
 * Environment of every component. glibc gives each thread that calls malloc its own arena (up to
 * 8 per core); a component's libuv and V8 worker threads left ~4 arenas of a few MiB each, partly
 * empty. Two arenas: −2 to −5 MiB RSS per component idle (docs/performance.md, "Footprint").
 * A MALLOC_ARENA_MAX the user set is kept.
 */
export function componentEnv(env: Record<string, string | undefined> = process.env): Record<string, string> {
  return env.MALLOC_ARENA_MAX ? {} : { MALLOC_ARENA_MAX: '2' };
}
