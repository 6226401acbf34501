import { SYSTEM_USER, type ApiContext } from '../rest/api-context';
import { objectKey } from '../rest/codec/object-codec';
import { updateObject } from '../rest/write/update-object';
import { settleAggregation } from '../rbac/aggregation';
import { loadPolicy } from '../rbac/rbac-cache';
import { RBAC_GROUP, RBAC_KINDS, type PolicyRule } from '../rbac/policy';

const WRITE = { user: SYSTEM_USER, dryRun: false, fieldValidation: 'Ignore' as const };

/** writes the aggregated rules of every ClusterRole with an aggregationRule that is out of date */
export async function aggregateClusterRoles(ctx: ApiContext): Promise<number> {
  const changed = settleAggregation(loadPolicy(ctx.store).clusterRoles);
  const rt = ctx.registry.find(RBAC_GROUP, 'v1', 'clusterroles')!;
  for (const [name, rules] of changed) {
    if (!ctx.store.get(objectKey(RBAC_KINDS.clusterroles, undefined, name))) continue;
    await updateObject(ctx, { rt, name, mutate: (cur) => ({ ...cur, rules: rules as PolicyRule[] }) }, WRITE);
  }
  return changed.size;
}

/**
 * kube's ClusterRole aggregation controller, in the API server: after any RBAC write, the
 * aggregated ClusterRoles (admin, edit, view and any a user defines) are brought up to date.
 */
export function startClusterRoleAggregationController(ctx: ApiContext): () => void {
  const log = ctx.log.child({ controller: 'clusterrole-aggregation' });
  let scheduled = false;
  let running = Promise.resolve();
  const run = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      running = running.then(() => aggregateClusterRoles(ctx)).then(() => undefined, (err) => {
        log.warn({ err: String(err) }, 'clusterrole aggregation failed; retrying');
        setTimeout(run, 1000).unref();
      });
    });
  };
  const stop = ctx.rbac.onChange(run);
  run();
  return stop;
}
