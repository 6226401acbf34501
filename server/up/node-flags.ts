/**
 * V8's young generation grows to 3 × 16 MiB semi-spaces in a busy process and rarely gives the
 * pages back: about 30 MiB of RSS per component (docs/performance.md, "Footprint"). Components whose
 * allocation rate is modest run with 2 MiB semi-spaces (more, shorter scavenges). The API server
 * keeps V8's default: its creates/s and watch latency are measured goals.
 */
export const SMALL_YOUNG_GENERATION = ['--max-semi-space-size=2'];

/** every component: lets it give back its start-up garbage once started (server/startup-gc.ts) */
export const COMPONENT_FLAGS = ['--expose-gc'];
