/**
 * The arithmetic of a Deployment's RollingUpdate (kube's deployment/util): maxSurge and
 * maxUnavailable resolved against the replica count, how far the new ReplicaSet may grow, and
 * how many old Pods may go without dropping below the available minimum.
 */

/** intstr.GetScaledValueFromIntOrPercent: a count, or a percentage of `total` rounded up or down */
export function scaledValue(v: number | string | undefined, total: number, roundUp: boolean): number {
  if (v === undefined) return 0;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m) return Number.isInteger(Number(v)) ? Number(v) : 0;
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** ResolveFenceposts: surge rounds up, unavailable down; both 0 would stall, so unavailable becomes 1 */
export function resolveFenceposts(maxSurge: number | string | undefined, maxUnavailable: number | string | undefined, desired: number): { surge: number; unavailable: number } {
  const surge = scaledValue(maxSurge, desired, true);
  let unavailable = scaledValue(maxUnavailable, desired, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

/** NewRSNewReplicas for RollingUpdate: grow the new set while the total stays within desired + surge */
export function newReplicaSetReplicas(desired: number, surge: number, newReplicas: number, totalReplicas: number): number {
  const maxTotal = desired + surge;
  if (totalReplicas >= maxTotal) return newReplicas;
  const scaleUp = Math.min(maxTotal - totalReplicas, Math.max(0, desired - newReplicas));
  return newReplicas + scaleUp;
}

export interface OldSet { name: string; replicas: number; available: number }

/**
 * reconcileOldReplicaSets: first drop old sets' unhealthy Pods, then healthy ones while the
 * available count stays at desired - maxUnavailable; oldest sets first. Returns each old set's
 * new replica count (only the changed ones).
 */
export function scaleDownOldSets(desired: number, unavailable: number, oldSets: OldSet[], newSet: { replicas: number; available: number }): Map<string, number> {
  const result = new Map<string, number>();
  const oldCount = oldSets.reduce((n, s) => n + s.replicas, 0);
  if (oldCount === 0) return result;
  const allCount = oldCount + newSet.replicas;
  const minAvailable = desired - unavailable;
  const newUnavailable = newSet.replicas - newSet.available;
  let budget = allCount - minAvailable - newUnavailable;
  if (budget <= 0) return result;
  const replicas = new Map(oldSets.map((s) => [s.name, s.replicas]));
  // unhealthy old Pods first: they add nothing to availability
  for (const s of oldSets) {
    if (budget <= 0) break;
    const unhealthy = Math.max(0, s.replicas - s.available);
    const cut = Math.min(unhealthy, budget);
    if (cut > 0) { replicas.set(s.name, s.replicas - cut); budget -= cut; }
  }
  // then healthy ones, while availability stays above the minimum
  const available = oldSets.reduce((n, s) => n + Math.min(s.available, replicas.get(s.name)!), 0) + newSet.available;
  let healthyBudget = available - minAvailable;
  for (const s of oldSets) {
    if (healthyBudget <= 0) break;
    const now = replicas.get(s.name)!;
    const cut = Math.min(now, healthyBudget);
    if (cut > 0) { replicas.set(s.name, now - cut); healthyBudget -= cut; }
  }
  for (const s of oldSets) if (replicas.get(s.name) !== s.replicas) result.set(s.name, replicas.get(s.name)!);
  return result;
}
