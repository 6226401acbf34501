import { describe, expect, it } from 'vitest';
import { readCRDManifests } from '../../kube/structural-schema/crd-manifests';
import type { JSONSchemaProps } from '../../kube/structural-schema/json-schema-props';
import { buildOpenAPIv2, buildOpenAPIv3Group, buildOpenAPIv3Index } from './openapi';
import { resourceTypesFromCRD, type ResourceType } from './resource-type';

const crs = readCRDManifests().flatMap(resourceTypesFromCRD);
const pods: ResourceType = {
  group: '', version: 'v1', resource: 'pods', kind: 'Pod', listKind: 'PodList', singular: 'pod', namespaced: true,
  shortNames: ['po'], categories: ['all'], verbs: [], subresources: { status: true }, printerColumns: [], storage: true, served: true,
};
const rts = [pods, ...crs];

/** what these tests read of the documents */
interface Operation { parameters: { name: string }[]; 'x-kubernetes-group-version-kind': { kind: string } }
interface OpenAPIv3Doc { paths: Record<string, { patch?: Operation }>; components: { schemas: Record<string, JSONSchemaProps> } }
interface OpenAPIv3Index { paths: Record<string, { serverRelativeURL: string }> }
interface SwaggerDoc { swagger: string; definitions: Record<string, JSONSchemaProps> }

/** Follows a dotted field path through a v3 schema the way `kubectl explain` does (allOf/$ref aware). */
function explain(doc: OpenAPIv3Doc, defName: string, path: string[]): JSONSchemaProps | undefined {
  let s: JSONSchemaProps | undefined = doc.components.schemas[defName];
  for (const field of path) {
    s = s?.properties?.[field] ?? s?.items?.properties?.[field];
    while (s?.allOf || s?.$ref) {
      const ref: string = s.$ref ?? s.allOf?.[0].$ref ?? '';
      s = doc.components.schemas[ref.replace('#/components/schemas/', '')];
    }
  }
  return s;
}

describe('buildOpenAPIv3Group', () => {
  const doc = buildOpenAPIv3Group(rts, 'kubevirt.io', 'v1') as OpenAPIv3Doc;

  it('finds vm.spec.runStrategy with its description, as kubectl explain does', () => {
    const vm = doc.components.schemas['io.kubevirt.v1.VirtualMachine'];
    expect(vm['x-kubernetes-group-version-kind']).toEqual([{ group: 'kubevirt.io', kind: 'VirtualMachine', version: 'v1' }]);
    const rs = explain(doc, 'io.kubevirt.v1.VirtualMachine', ['spec', 'runStrategy']);
    expect(rs?.type).toBe('string');
    expect(rs?.description).toMatch(/Running state indicates the requested running state/);
    expect(explain(doc, 'io.kubevirt.v1.VirtualMachine', ['metadata', 'labels'])?.type).toBe('object');
  });

  it('advertises fieldValidation on each kind\'s PATCH, so kubectl validates server-side', () => {
    const patchOps = Object.values(doc.paths).map((p) => p.patch).filter((op): op is Operation => Boolean(op));
    const kinds = patchOps.filter((op) => op.parameters.some((p) => p.name === 'fieldValidation'))
      .map((op) => op['x-kubernetes-group-version-kind'].kind);
    expect(new Set(kinds)).toEqual(new Set(['VirtualMachine', 'VirtualMachineInstance', 'VirtualMachineInstanceMigration', 'KubeVirt', 'VirtualMachineInstanceReplicaSet', 'VirtualMachineInstancePreset']));
    expect(doc.paths).toHaveProperty(['/apis/kubevirt.io/v1/namespaces/{namespace}/virtualmachines/{name}/status']);
  });

  it('is undefined for a group/version nobody serves', () => {
    expect(buildOpenAPIv3Group(rts, 'kubevirt.io', 'v9')).toBeUndefined();
  });

  it('serves a cluster-scoped kind without a namespace segment', () => {
    const mp = buildOpenAPIv3Group(rts, 'migrations.kubevirt.io', 'v1alpha1') as OpenAPIv3Doc;
    expect(Object.keys(mp.paths)).toContain('/apis/migrations.kubevirt.io/v1alpha1/migrationpolicies/{name}');
  });
});

describe('buildOpenAPIv3Index', () => {
  it('lists every group/version with a hash that changes with the content', () => {
    const index = buildOpenAPIv3Index(rts) as OpenAPIv3Index;
    expect(Object.keys(index.paths).sort()).toEqual(['api/v1', 'apis/cdi.kubevirt.io/v1beta1', 'apis/clone.kubevirt.io/v1beta1', 'apis/instancetype.kubevirt.io/v1beta1', 'apis/kubevirt.io/v1', 'apis/migrations.kubevirt.io/v1alpha1', 'apis/pool.kubevirt.io/v1alpha1', 'apis/pool.kubevirt.io/v1beta1', 'apis/snapshot.kubevirt.io/v1beta1']);
    expect(index.paths['apis/kubevirt.io/v1'].serverRelativeURL).toMatch(/^\/openapi\/v3\/apis\/kubevirt\.io\/v1\?hash=[0-9A-F]{128}$/);
    const changed = buildOpenAPIv3Index([pods, ...crs.filter((r) => r.kind !== 'VirtualMachine')]) as OpenAPIv3Index;
    expect(changed.paths['apis/kubevirt.io/v1'].serverRelativeURL).not.toBe(index.paths['apis/kubevirt.io/v1'].serverRelativeURL);
    expect(changed.paths['api/v1']).toEqual(index.paths['api/v1']);
  });
});

describe('buildOpenAPIv2', () => {
  const doc = buildOpenAPIv2(rts) as SwaggerDoc;

  it('has a definition per kind and list kind, with GVK extensions', () => {
    expect(doc.swagger).toBe('2.0');
    expect(doc.definitions['io.kubevirt.v1.VirtualMachineList']['x-kubernetes-group-version-kind'])
      .toEqual([{ group: 'kubevirt.io', kind: 'VirtualMachineList', version: 'v1' }]);
    expect(doc.definitions['io.k8s.api.core.v1.Pod']['x-kubernetes-group-version-kind']).toEqual([{ group: '', kind: 'Pod', version: 'v1' }]);
    expect(doc.definitions['io.kubevirt.v1.VirtualMachine'].properties?.metadata).toEqual({ $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' });
  });

  it('strips what Swagger 2.0 cannot say (nullable, anyOf)', () => {
    const text = JSON.stringify(doc.definitions['io.kubevirt.v1.VirtualMachine']);
    expect(text).not.toContain('"nullable"');
    expect(text).not.toContain('"anyOf"');
    expect(text).toContain('"x-kubernetes-int-or-string":true');
  });

  it('is built once for the same types', () => {
    expect(buildOpenAPIv2(rts)).toBe(doc);
  });
});
