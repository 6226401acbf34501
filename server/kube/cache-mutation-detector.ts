/**
 * Informers of one process share the objects they cache (list-watch-feed.ts), so a component that
 * changed a cached object in place would change it under every other component too. With
 * KV_CACHE_MUTATION_DETECTOR=1 (the test suites set it; client-go has KUBE_CACHE_MUTATION_DETECTOR
 * for the same rule) every object a feed delivers is frozen, and such a change throws a TypeError
 * where it is made. Off by default: freezing walks each object once more.
 */
const ON = process.env.KV_CACHE_MUTATION_DETECTOR === '1';

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}

/** freezes `obj` deeply when the detector is on; returns it */
export function guardCached<T>(obj: T): T {
  if (ON) deepFreeze(obj);
  return obj;
}
