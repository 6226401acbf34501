/** PURE: whether a Pod falls under a quota's scopes (kube's scope matching for the served scopes). */
import { podQOSClass, type PodLike } from '../pod-kinds/pod-qos';

type ScopedPod = PodLike & { spec?: { activeDeadlineSeconds?: number } };

function matchesScope(pod: ScopedPod, scope: string): boolean {
  const terminating = typeof pod.spec?.activeDeadlineSeconds === 'number' && pod.spec.activeDeadlineSeconds >= 0;
  switch (scope) {
    case 'Terminating': return terminating;
    case 'NotTerminating': return !terminating;
    case 'BestEffort': return podQOSClass(pod) === 'BestEffort';
    case 'NotBestEffort': return podQOSClass(pod) !== 'BestEffort';
    default: return false;
  }
}

/** every scope must match; a quota without scopes covers every Pod */
export function podMatchesScopes(pod: ScopedPod, scopes: readonly string[]): boolean {
  return scopes.every((s) => matchesScope(pod, s));
}
