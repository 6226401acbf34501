import type { APIService } from '../../aggregation/api-service-target';
import type { ServedType } from './resource-type';
import type { TypeRegistry } from './type-registry';

/** Discovery documents: APIVersions, APIGroupList, APIGroup, APIResourceList. */
export function apiVersions(serverAddress: string) {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

type GroupDoc = { name: string; versions: { groupVersion: string; version: string }[]; preferredVersion: { groupVersion: string; version: string } };

function groupDoc(name: string, versions: string[]): GroupDoc {
  const gv = (v: string) => ({ groupVersion: `${name}/${v}`, version: v });
  return { name, versions: versions.map(gv), preferredVersion: gv(versions[0]) };
}

/** named groups: the built-ins and CRDs, plus groups served by APIServices */
export function apiGroupList(registry: TypeRegistry, apiservices: APIService[]) {
  const groups = registry.groups().filter((g) => g.name !== '').map((g) => groupDoc(g.name, g.versions));
  for (const svc of apiservices) {
    const { group, version } = svc.spec ?? {};
    if (!group || !version) continue;
    const existing = groups.find((g) => g.name === group);
    if (!existing) groups.push(groupDoc(group, [version]));
    else if (!existing.versions.some((v) => v.version === version)) existing.versions.push({ groupVersion: `${group}/${version}`, version });
  }
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

export function apiGroup(registry: TypeRegistry, apiservices: APIService[], name: string) {
  const g = apiGroupList(registry, apiservices).groups.find((x) => x.name === name);
  return g && { kind: 'APIGroup', apiVersion: 'v1', ...g };
}

const SUBRESOURCE_DOCS: Record<string, (rt: ServedType) => Record<string, unknown>> = {
  status: (rt) => ({ kind: rt.kind, verbs: ['get', 'patch', 'update'] }),
  finalize: (rt) => ({ kind: rt.kind, verbs: ['update'] }),
  binding: () => ({ kind: 'Binding', verbs: ['create'] }),
  eviction: () => ({ group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] }),
  token: () => ({ group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] }),
  scale: () => ({ group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] }),
  log: () => ({ kind: 'Pod', verbs: ['get'] }),
  portforward: () => ({ kind: 'PodPortForwardOptions', verbs: ['create', 'get'] }),
};

function resourceDocs(rt: ServedType): Record<string, unknown>[] {
  const main: Record<string, unknown> = { name: rt.resource, singularName: rt.singular, namespaced: rt.namespaced, kind: rt.kind, verbs: rt.verbs };
  if (rt.shortNames.length) main.shortNames = rt.shortNames;
  if (rt.categories.length) main.categories = rt.categories;
  const subs = [...(rt.subresources.status ? ['status'] : []), ...(rt.subresources.scale ? ['scale'] : []), ...(rt.extraSubresources ?? [])];
  return [main, ...subs.map((s) => ({ name: `${rt.resource}/${s}`, singularName: '', namespaced: rt.namespaced, ...SUBRESOURCE_DOCS[s](rt) }))];
}

/** the discovery document at a path (/api, /apis, /api/v1, /apis/<g>, /apis/<g>/<v>), if any */
export function discoveryDocument(registry: TypeRegistry, apiservices: APIService[], path: string, serverAddress: string): unknown | undefined {
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'api') {
    if (parts.length === 1) return apiVersions(serverAddress);
    if (parts.length === 2) return apiResourceList(registry, '', parts[1]);
  }
  if (parts[0] !== 'apis') return undefined;
  if (parts.length === 1) return apiGroupList(registry, apiservices);
  if (parts.length === 2) return apiGroup(registry, apiservices, parts[1]);
  if (parts.length === 3) return apiResourceList(registry, parts[1], parts[2]);
  return undefined;
}

export function apiResourceList(registry: TypeRegistry, group: string, version: string) {
  const types = registry.resourcesIn(group, version);
  if (!types.length) return undefined;
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources: types.flatMap(resourceDocs) };
}
