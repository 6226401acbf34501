import type { ComponentSpec } from './supervisor';
import { SMALL_YOUNG_GENERATION } from './node-flags';

/**
 * One supervised `kv control-plane` process for several components (embedded mode's default, to
 * save memory: docs/performance.md, "Footprint"): the controllers and node agents in one, virt-api
 * and the console in another. Each component keeps its own argv; the shared
 * process is live only while every component's liveness probe answers, so a hung handler still
 * gets it restarted (and with it the others, which converge from the API server).
 */
export function shareProcess(name: string, specs: ComponentSpec[]): ComponentSpec {
  const probes = specs.flatMap((s) => (s.liveness ? [s.liveness] : []));
  const env = Object.assign({}, ...specs.map((s) => s.env ?? {})) as Record<string, string>;
  return {
    name,
    nodeFlags: SMALL_YOUNG_GENERATION,
    args: ['control-plane', ...specs.flatMap((s, i) => (i === 0 ? s.args : ['--and', ...s.args]))],
    ...(Object.keys(env).length ? { env } : {}),
    ...(probes.length ? { liveness: { check: async (timeoutMs: number) => (await Promise.all(probes.map((p) => p.check(timeoutMs).catch(() => false)))).every(Boolean) } } : {}),
  };
}
