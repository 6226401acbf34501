/**
 * kube-apiserver's bootstrap `default/kubernetes` Service (cluster IP 10.96.0.1, port 443/https) and
 * the Endpoints and EndpointSlice that point it at this API server's address, kept current at
 * every start (a restart may listen elsewhere).
 */
import { SYSTEM_USER, type ApiContext } from './rest/api-context';
import { objectKey } from './rest/codec/object-codec';
import { KUBERNETES_SERVICE_IP } from './rest/write/service-kinds/service-fields';
import { createObject } from './rest/write/create-object';
import { updateObject } from './rest/write/update-object';

const WRITE = { user: SYSTEM_USER, dryRun: false, fieldValidation: 'Ignore' as const };
const NAME = 'kubernetes';
const NAMESPACE = 'default';
const LABELS = { component: 'apiserver', provider: 'kubernetes' };

type Obj = Record<string, unknown>;

export interface ApiAddress { host: string; port: number }

function service(addr: ApiAddress): Obj {
  return {
    metadata: { name: NAME, namespace: NAMESPACE, labels: LABELS },
    spec: { type: 'ClusterIP', clusterIP: KUBERNETES_SERVICE_IP, ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: addr.port }] },
  };
}

function endpoints(addr: ApiAddress): Obj {
  return {
    metadata: { name: NAME, namespace: NAMESPACE, labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip: addr.host }], ports: [{ name: 'https', port: addr.port, protocol: 'TCP' }] }],
  };
}

function endpointSlice(addr: ApiAddress): Obj {
  return {
    metadata: { name: NAME, namespace: NAMESPACE, labels: { 'kubernetes.io/service-name': NAME } },
    addressType: 'IPv4',
    endpoints: [{ addresses: [addr.host], conditions: { ready: true } }],
    ports: [{ name: 'https', port: addr.port, protocol: 'TCP' }],
  };
}

async function upsert(ctx: ApiContext, resource: { group: string; resource: string }, desired: Obj, apply: (cur: Obj, want: Obj) => Obj): Promise<void> {
  const rt = ctx.registry.find(resource.group, 'v1', resource.resource);
  if (!rt) return;
  if (!ctx.store.get(objectKey(rt, NAMESPACE, NAME))) {
    await createObject(ctx, rt, NAMESPACE, desired, WRITE);
    return;
  }
  await updateObject(ctx, { rt, namespace: NAMESPACE, name: NAME, mutate: (cur: Obj) => apply(cur, desired) }, WRITE);
}

/** creates or refreshes default/kubernetes and its Endpoints and EndpointSlice */
export async function ensureKubernetesService(ctx: ApiContext, addr: ApiAddress): Promise<void> {
  await upsert(ctx, { group: '', resource: 'services' }, service(addr), (cur, want) => {
    const spec = { ...(cur.spec as Obj), ports: (want.spec as Obj).ports };
    return { ...cur, spec };
  });
  await upsert(ctx, { group: '', resource: 'endpoints' }, endpoints(addr), (cur, want) => ({ ...cur, subsets: want.subsets }));
  await upsert(ctx, { group: 'discovery.k8s.io', resource: 'endpointslices' }, endpointSlice(addr), (cur, want) => ({ ...cur, endpoints: want.endpoints, ports: want.ports }));
}
