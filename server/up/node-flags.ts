/**
 * V8's young generation grows to 3 × 16 MiB semi-spaces in a busy process and rarely gives the
 * pages back: about 30 MiB of RSS per component (docs/performance.md, "Footprint"). Components whose
 * allocation rate is modest run with 2 MiB semi-spaces (more, shorter scavenges). The API server
 * keeps V8's default: its creates/s and watch latency are measured goals.
 */
export const SMALL_YOUNG_GENERATION = ['--max-semi-space-size=2'];

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
