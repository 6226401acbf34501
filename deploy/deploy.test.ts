/**
 * The cluster-mode manifests, checked as far as a machine without a cluster allows: they parse, every
 * object is well-formed, kustomize lists every file, RBAC names only resources that exist and
 * grants users KubeVirt's split of view / edit / admin / migrate.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KUBEVIRT_RESOURCES, SUBRESOURCES_GROUP } from '../lib/kubevirt';
import { apiResourceList } from '../server/virt-api/discovery';
import {
  CLUSTER_DIR, clusterObjects, clusterRoles, crdFacts, DEPLOY_DIR, findObject, kustomizationResources, NAMESPACE, readYamlFile, yamlFilesUnder, type Manifest,
} from './testing/manifests';

/** Built-in resources our components touch (a typo guard, not Kubernetes' full list). */
const BUILTIN_RESOURCES: Record<string, string[]> = {
  '': ['pods', 'pods/status', 'nodes', 'events', 'namespaces', 'services', 'endpoints', 'configmaps', 'secrets', 'persistentvolumeclaims', 'persistentvolumes', 'serviceaccounts/token', 'resourcequotas'],
  apps: ['controllerrevisions'],
  'authorization.k8s.io': ['subjectaccessreviews', 'selfsubjectaccessreviews'],
  'authentication.k8s.io': ['tokenreviews'],
  'storage.k8s.io': ['storageclasses'],
};
const VERBS = new Set(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection']);
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'APIService', 'MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'VirtualMachineClusterInstancetype', 'VirtualMachineClusterPreference']);

function knownResources(): Map<string, Set<string>> {
  const known = new Map(Object.entries(BUILTIN_RESOURCES).map(([g, rs]) => [g, new Set(rs)]));
  for (const crd of crdFacts()) {
    const set = known.get(crd.group) ?? new Set<string>();
    [crd.plural, `${crd.plural}/finalizers`, ...crd.subresources.map((s) => `${crd.plural}/${s}`)].forEach((r) => set.add(r));
    known.set(crd.group, set);
  }
  known.set(SUBRESOURCES_GROUP, new Set(apiResourceList('v1').resources.map((r) => r.name)));
  return known;
}

describe('deploy manifests', () => {
  it('every YAML file under deploy/ parses and every object has apiVersion, kind and metadata.name', () => {
    const files = yamlFilesUnder(DEPLOY_DIR).filter((f) => !f.startsWith('openapi/'));
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      for (const o of readYamlFile(join(DEPLOY_DIR, f)) as Partial<Manifest>[]) {
        if (o.kind === 'Kustomization') continue;
        expect({ f, apiVersion: typeof o.apiVersion, kind: typeof o.kind, name: typeof o.metadata?.name }).toEqual({ f, apiVersion: 'string', kind: 'string', name: 'string' });
      }
    }
  });

  it('kustomization lists every manifest of deploy/cluster (the cert-manager part is applied on its own)', () => {
    const listed = kustomizationResources();
    const present = yamlFilesUnder(CLUSTER_DIR).filter((f) => !f.includes('/') && f !== 'kustomization.yaml');
    expect([...listed].sort()).toEqual(present.sort());
    for (const f of kustomizationResources(join(CLUSTER_DIR, 'cert-manager'))) expect(existsSync(join(CLUSTER_DIR, 'cert-manager', f))).toBe(true);
  });

  it('namespaced objects live in kubevirt (or kube-system), cluster-scoped ones have no namespace, names are unique', () => {
    const seen = new Set<string>();
    for (const { file, obj } of clusterObjects()) {
      const ns = obj.metadata.namespace;
      if (CLUSTER_SCOPED.has(obj.kind)) expect(ns, `${file} ${obj.kind}/${obj.metadata.name}`).toBeUndefined();
      else expect([NAMESPACE, 'kube-system'], `${file} ${obj.kind}/${obj.metadata.name}`).toContain(ns);
      const key = `${obj.kind}/${ns ?? ''}/${obj.metadata.name}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
  });

  it('the CRDs serve the kinds lib/kubevirt describes', () => {
    const crds = crdFacts().map(({ group, plural, kind, namespaced }) => ({ group, plural, kind, namespaced }));
    expect(crds.sort((a, b) => a.plural.localeCompare(b.plural))).toEqual(
      KUBEVIRT_RESOURCES.map(({ group, plural, kind, namespaced }) => ({ group, plural, kind, namespaced })).sort((a, b) => a.plural.localeCompare(b.plural)));
  });
});

describe('RBAC', () => {
  it('every rule of our components names an existing group, resource and verb', () => {
    const known = knownResources();
    // KubeVirt's user roles (rbac-user-roles.yaml) are generated from the embedded policy, rule for
    // rule as KubeVirt's operator installs them, so they also name subresources we do not serve
    // (sev/*, usbredir, guestfs…); user-roles-manifest.test.ts keeps that file equal to the policy
    const ours = clusterObjects().filter((l) => l.obj.kind === 'ClusterRole' && l.file !== 'rbac-user-roles.yaml').map((l) => l.obj.metadata.name);
    for (const role of clusterRoles().filter((r) => ours.includes(r.metadata?.name ?? ''))) {
      for (const rule of role.rules ?? []) {
        for (const g of rule.apiGroups ?? []) {
          for (const r of rule.resources ?? []) expect(known.get(g)?.has(r), `${role.metadata.name}: ${g}/${r}`).toBe(true);
        }
        for (const v of rule.verbs) expect(VERBS.has(v), `${role.metadata.name}: verb ${v}`).toBe(true);
      }
    }
  });

  it('bindings point at roles and service accounts that exist', () => {
    const objs = clusterObjects().map((l) => l.obj);
    // roles every kube-apiserver bootstraps (ours too: server/apiserver/extension-apiserver-authentication.ts)
    const fromKubernetes = new Set(['Role/extension-apiserver-authentication-reader']);
    for (const b of objs.filter((o) => o.kind.endsWith('RoleBinding')) as (Manifest & { roleRef: { kind: string; name: string }; subjects: { kind: string; name: string; namespace?: string }[] })[]) {
      const provided = fromKubernetes.has(`${b.roleRef.kind}/${b.roleRef.name}`);
      expect(provided || objs.some((o) => o.kind === b.roleRef.kind && o.metadata.name === b.roleRef.name), `${b.metadata.name} → ${b.roleRef.name}`).toBe(true);
      for (const s of b.subjects.filter((x: { kind: string }) => x.kind === 'ServiceAccount')) {
        expect(objs.some((o) => o.kind === 'ServiceAccount' && o.metadata.name === s.name && o.metadata.namespace === s.namespace), `${b.metadata.name} → ${s.namespace}/${s.name}`).toBe(true);
      }
    }
  });

  const can = (role: string, group: string, resource: string, verb: string) =>
    (findObject('ClusterRole', role).rules as { apiGroups: string[]; resources: string[]; verbs: string[] }[]).some((r) => r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb));

  it.each([
    ['kubevirt.io:view', 'kubevirt.io', 'virtualmachines', 'list', true],
    ['kubevirt.io:view', SUBRESOURCES_GROUP, 'virtualmachineinstances/vnc', 'get', false],
    ['kubevirt.io:view', SUBRESOURCES_GROUP, 'virtualmachineinstances/console', 'get', false],
    ['kubevirt.io:view', SUBRESOURCES_GROUP, 'virtualmachines/start', 'update', false],
    ['kubevirt.io:edit', SUBRESOURCES_GROUP, 'virtualmachineinstances/vnc', 'get', true],
    ['kubevirt.io:edit', SUBRESOURCES_GROUP, 'virtualmachineinstances/console', 'get', true],
    ['kubevirt.io:edit', SUBRESOURCES_GROUP, 'virtualmachines/stop', 'update', true],
    ['kubevirt.io:edit', SUBRESOURCES_GROUP, 'virtualmachines/migrate', 'update', false],
    ['kubevirt.io:edit', 'kubevirt.io', 'virtualmachineinstancemigrations', 'create', false],
    ['kubevirt.io:admin', 'kubevirt.io', 'virtualmachines', 'deletecollection', true],
    ['kubevirt.io:migrate', SUBRESOURCES_GROUP, 'virtualmachines/migrate', 'update', true],
    ['kubevirt.io:migrate', 'kubevirt.io', 'virtualmachineinstancemigrations', 'create', true],
  ])('%s: %s %s %s → %s', (role, group, resource, verb, allowed) => {
    expect(can(role, group, resource, verb)).toBe(allowed);
  });

  it('kubevirt.io:migrate is bound on purpose: it aggregates into no default role', () => {
    expect(Object.keys(findObject('ClusterRole', 'kubevirt.io:migrate').metadata.labels ?? {}).filter((l) => l.includes('aggregate-to'))).toEqual([]);
  });
});
