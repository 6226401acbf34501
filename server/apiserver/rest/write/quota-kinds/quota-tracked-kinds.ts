/**
 * PURE: which kinds a ResourceQuota's `spec.hard` names count, so that only writes of those kinds
 * (and of quotas themselves) make the quota controller recompute a namespace's usage: an Event,
 * a Lease or an unnamed custom resource changes no quota's `status.used`.
 */

/** what only a claim's own usage answers (its count is an object count) */
export const isClaimResource = (name: string) => name === 'requests.storage' || name.includes('.storageclass.storage.k8s.io/');

const LEGACY = ['services', 'configmaps', 'secrets', 'persistentvolumeclaims', 'replicationcontrollers', 'resourcequotas'];

/** `count/<resource>[.<group>]` or a legacy count name → the kind it counts */
export function countedKind(name: string): { group: string; resource: string } | undefined {
  if (LEGACY.includes(name)) return { group: '', resource: name };
  if (!name.startsWith('count/')) return undefined;
  const [resource, ...group] = name.slice('count/'.length).split('.');
  return { group: group.join('.'), resource };
}

const kindKey = (group: string, resource: string) => `${group}/${resource}`;

/** `<group>/<resource>` of each kind these hard names count; a name that is no object count is a Pod's (pods, cpu, requests.*, limits.*, hugepages…) */
export function trackedKinds(hardNames: Iterable<string>): Set<string> {
  const kinds = new Set([kindKey('', 'resourcequotas')]);
  for (const name of hardNames) {
    const kind = countedKind(name);
    if (kind) kinds.add(kindKey(kind.group, kind.resource));
    else if (isClaimResource(name)) kinds.add(kindKey('', 'persistentvolumeclaims'));
    else kinds.add(kindKey('', 'pods'));
  }
  return kinds;
}

/** whether a write of this kind can change the usage these quotas' hard names count */
export const countsKind = (tracked: Set<string>, group: string, resource: string) => tracked.has(kindKey(group, resource));
