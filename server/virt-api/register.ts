/**
 * Embedded mode: make the API server use this virt-api — the APIServices for
 * `subresources.kubevirt.io` (a Service `kubevirt/virt-api` whose Endpoints point at our address;
 * the API server dials a Service through its Endpoints) and the webhook configurations (by URL). Create or update.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { SUBRESOURCES_GROUP } from '../../lib/kubevirt';
import { webhookConfigurations } from './admission/webhook-configurations';
import { SERVED_VERSIONS } from './discovery';
import { exchangeJson } from '../kube/raw-request';

/** what a registration reads of the API server's reply */
interface Reply { metadata?: { resourceVersion?: string }; message?: string }

export const VIRT_API_NAMESPACE = 'kubevirt';
export const VIRT_API_SERVICE = 'virt-api';

export interface Registration { url: string; host: string; port: number; caPem: string }

async function upsert(kc: KubeConfig, collection: string, obj: { metadata: { name: string; [k: string]: unknown } } & Record<string, unknown>): Promise<void> {
  const path = `${collection}/${obj.metadata.name}`;
  const cur = await exchangeJson<Reply>(kc, 'GET', path);
  const res = cur.status === 404
    ? await exchangeJson<Reply>(kc, 'POST', collection, obj)
    : await exchangeJson<Reply>(kc, 'PUT', path, { ...obj, metadata: { ...obj.metadata, resourceVersion: cur.json?.metadata?.resourceVersion } });
  if (res.status >= 300 && res.status !== 409) throw new Error(`registering ${path}: HTTP ${res.status} ${res.json?.message ?? ''}`);
}

export function apiServices(r: Registration) {
  return SERVED_VERSIONS.map((version, i) => ({
    apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService',
    metadata: { name: `${version}.${SUBRESOURCES_GROUP}` },
    spec: {
      group: SUBRESOURCES_GROUP, version, groupPriorityMinimum: 1000, versionPriority: 15 - i,
      service: { namespace: VIRT_API_NAMESPACE, name: VIRT_API_SERVICE, port: r.port },
      caBundle: Buffer.from(r.caPem).toString('base64'),
    },
  }));
}

export async function registerVirtApi(kc: KubeConfig, r: Registration): Promise<void> {
  await upsert(kc, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: VIRT_API_NAMESPACE } });
  const ns = `/api/v1/namespaces/${VIRT_API_NAMESPACE}`;
  const ports = [{ name: 'https', port: r.port, protocol: 'TCP' }];
  await upsert(kc, `${ns}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: VIRT_API_SERVICE, namespace: VIRT_API_NAMESPACE }, spec: { clusterIP: 'None', ports } });
  await upsert(kc, `${ns}/endpoints`, {
    apiVersion: 'v1', kind: 'Endpoints', metadata: { name: VIRT_API_SERVICE, namespace: VIRT_API_NAMESPACE },
    subsets: [{ addresses: [{ ip: r.host }], ports }],
  });
  for (const svc of apiServices(r)) await upsert(kc, '/apis/apiregistration.k8s.io/v1/apiservices', svc);
  const [mutating, validating] = webhookConfigurations({ url: r.url, caBundle: Buffer.from(r.caPem).toString('base64') });
  await upsert(kc, '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', mutating as never);
  await upsert(kc, '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', validating as never);
}
