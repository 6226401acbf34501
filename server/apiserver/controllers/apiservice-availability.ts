/**
 * kube-aggregator's AvailableConditionController, by the Service and its Endpoints: an APIService
 * served by a Service is Available when the Service exists, has the APIService's port, and its
 * Endpoints carry a ready address for that port. Kube's reasons and messages (ServiceNotFound,
 * ServicePortError, MissingEndpoints, Passed; Local for the API server's own groups). Unlike kube it
 * does not also GET the group's discovery document through the proxy, and Endpoints with an
 * address but no Service count as served (the proxy dials Endpoints; embedded registrations and tests make only those).
 */
import { SYSTEM_USER, type ApiContext } from '../rest/api-context';
import { nowTimestamp, objectKey, objectPrefix } from '../rest/codec/object-codec';
import { updateObject } from '../rest/write/update-object';
import { isGone } from './registry-lookup';
import { ENDPOINT_ANNOTATION } from '../aggregation';
import type { ApiObject } from '../rest/types/api-object';

const WRITE = { user: SYSTEM_USER, dryRun: false, fieldValidation: 'Ignore' as const };
const APISERVICES = { group: 'apiregistration.k8s.io', resource: 'apiservices', namespaced: false };
const SERVICES = { group: '', resource: 'services', namespaced: true };
const ENDPOINTS = { group: '', resource: 'endpoints', namespaced: true };
const PERIOD_MS = 2000;

export interface Availability { status: 'True' | 'False'; reason: string; message: string }

interface ServicePortLike { name?: string; port?: number }
interface ServiceLike { spec?: { ports?: ServicePortLike[] } }
interface EndpointsLike { subsets?: { addresses?: unknown[]; ports?: ServicePortLike[] }[] }
interface APIServiceLike { spec?: { service?: { namespace?: string; name?: string; port?: number } } }

/** the Available condition an APIService should have, given its Service and Endpoints as stored */
export function apiServiceAvailability(apiService: APIServiceLike, service: ServiceLike | undefined, endpoints: EndpointsLike | undefined): Availability {
  const ref = apiService.spec?.service;
  if (!ref) return { status: 'True', reason: 'Local', message: 'Local APIServices are always available' };
  const where = `service/${ref.name} in "${ref.namespace}"`;
  const anyAddress = (endpoints?.subsets ?? []).some((x) => (x.addresses ?? []).length > 0);
  // the proxy dials the Endpoints (embedded mode may register Endpoints without a Service): they suffice
  if (!service) return anyAddress ? PASSED : { status: 'False', reason: 'ServiceNotFound', message: `${where} is not present` };
  const port = ref.port ?? 443;
  const servicePort = (service.spec?.ports ?? []).find((p) => p.port === port);
  if (!servicePort) return { status: 'False', reason: 'ServicePortError', message: `${where} is not listening on port ${port}` };
  const served = (endpoints?.subsets ?? []).some((s) => (s.addresses ?? []).length > 0 && (s.ports ?? []).some((p) => (p.name ?? '') === (servicePort.name ?? '')));
  if (!served) return { status: 'False', reason: 'MissingEndpoints', message: `endpoints for ${where} have no addresses with port name "${servicePort.name ?? ''}"` };
  return PASSED;
}

const PASSED: Availability = { status: 'True', reason: 'Passed', message: 'all checks passed' };

const read = (ctx: ApiContext, key: string) => {
  const kv = ctx.store.get(key);
  return kv ? JSON.parse(kv.value) : undefined;
};

/** keeps every APIService's Available condition current; returns the stop function */
export function startAPIServiceAvailabilityController(ctx: ApiContext): () => void {
  const log = ctx.log.child({ controller: 'apiservice-availability' });
  const rt = ctx.registry.find('apiregistration.k8s.io', 'v1', 'apiservices');
  if (!rt) return () => undefined;
  let busy = false;
  async function check(): Promise<void> {
    for (const kv of ctx.store.list(objectPrefix(APISERVICES)).items) {
      const api = JSON.parse(kv.value);
      if (api.metadata?.annotations?.[ENDPOINT_ANNOTATION]) continue; // dialled at a URL, not through a Service
      const ref = api.spec?.service;
      const want = apiServiceAvailability(api, ref && read(ctx, objectKey(SERVICES, ref.namespace, ref.name)), ref && read(ctx, objectKey(ENDPOINTS, ref.namespace, ref.name)));
      const cur = (api.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Available');
      if (cur && cur.status === want.status && cur.reason === want.reason && cur.message === want.message) continue;
      try {
        await updateObject(ctx, { rt: rt!, name: api.metadata.name, subresource: 'status', mutate: (o: ApiObject & { status?: { conditions?: { type: string; [field: string]: unknown }[] } }) => {
          delete o.metadata.resourceVersion;
          const others = (o.status?.conditions ?? []).filter((c: { type: string }) => c.type !== 'Available');
          const lastTransitionTime = cur?.status === want.status ? cur.lastTransitionTime : nowTimestamp();
          o.status = { ...o.status, conditions: [...others, { type: 'Available', ...want, lastTransitionTime }] };
          return o;
        } }, WRITE);
      } catch (err) {
        if (!isGone(err)) log.warn({ apiservice: api.metadata.name, err: String(err) }, 'apiservice status update failed');
      }
    }
  }
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    check().catch((err: unknown) => log.warn({ err: String(err) }, 'apiservice availability check failed')).finally(() => { busy = false; });
  }, PERIOD_MS);
  return () => clearInterval(timer);
}
