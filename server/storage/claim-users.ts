/** PURE: which Pods use which claims (for pvc-protection and the scheduler). */
import type { V1Pod } from '@kubernetes/client-node';

export function claimNamesOf(pod: V1Pod): string[] {
  return (pod.spec?.volumes ?? []).map((v) => v.persistentVolumeClaim?.claimName ?? (v.ephemeral ? `${pod.metadata?.name}-${v.name}` : undefined)).filter((n): n is string => !!n);
}

/** a Pod still holds its volumes until it has terminated (kube's pvc-protection rule) */
export function podHoldsVolumes(pod: V1Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed';
}

export function podsUsingClaim(pods: V1Pod[], namespace: string, claim: string): V1Pod[] {
  return pods.filter((p) => p.metadata?.namespace === namespace && podHoldsVolumes(p) && claimNamesOf(p).includes(claim));
}
