import type { WebhookConfiguration } from './admission/webhook-rules';
import type { APIService } from './aggregation/api-service-target';
import type { CustomResourceDefinition } from '../kube/structural-schema/crd-types';
import type { ApiContext } from './rest/api-context';
import { objectPrefix } from './rest/codec/object-codec';

/**
 * In-memory copies of the objects that shape request handling: CRDs (served types),
 * webhook configurations (admission) and APIServices (aggregation). Reloaded after each
 * committed write to them, so a new CRD is in discovery before its create returns.
 */
const CRD = { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', namespaced: false };
const MUTATING = { group: 'admissionregistration.k8s.io', resource: 'mutatingwebhookconfigurations', namespaced: false };
const VALIDATING = { group: 'admissionregistration.k8s.io', resource: 'validatingwebhookconfigurations', namespaced: false };
const APISERVICE = { group: 'apiregistration.k8s.io', resource: 'apiservices', namespaced: false };

/** every stored object of a type (the caller names the kind's shape), with its resourceVersion */
function loadAll<T>(ctx: ApiContext, rt: typeof CRD): T[] {
  return ctx.store.list(objectPrefix(rt)).items.map((kv) => {
    const obj = JSON.parse(kv.value);
    obj.metadata.resourceVersion = String(kv.modRevision);
    return obj;
  });
}

function reloadCRDs(ctx: ApiContext): void {
  const crds = loadAll<CustomResourceDefinition>(ctx, CRD);
  ctx.registry.replaceCRDs(crds);
}

const same = (a: { group: string; resource: string }, b: { group: string; resource: string }) => a.group === b.group && a.resource === b.resource;

export function startConfigCaches(ctx: ApiContext): void {
  reloadCRDs(ctx);
  ctx.webhooks.mutating = loadAll<WebhookConfiguration>(ctx, MUTATING);
  ctx.webhooks.validating = loadAll<WebhookConfiguration>(ctx, VALIDATING);
  ctx.apiservices = loadAll<APIService>(ctx, APISERVICE);
  ctx.afterWrite = (rt) => {
    ctx.rbac.afterWrite(rt);
    if (same(rt, CRD)) reloadCRDs(ctx);
    else if (same(rt, MUTATING)) ctx.webhooks.mutating = loadAll<WebhookConfiguration>(ctx, MUTATING);
    else if (same(rt, VALIDATING)) ctx.webhooks.validating = loadAll<WebhookConfiguration>(ctx, VALIDATING);
    else if (same(rt, APISERVICE)) ctx.apiservices = loadAll<APIService>(ctx, APISERVICE);
  };
}
