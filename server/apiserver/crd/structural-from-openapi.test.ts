import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCRDManifests } from '../../kube/structural-schema/crd-manifests';
import type { CustomResourceDefinition } from '../../kube/structural-schema/crd-types';
import { KUBEVIRT_CRD_SPECS, renderCRD } from './kubevirt-crd-specs';
import type { JSONSchemaProps } from '../../kube/structural-schema/json-schema-props';
import { withSyntheticDefinitions } from './synthetic-definitions';
import { QUANTITY_PATTERN, structuralSchemaFor } from './structural-from-openapi';

const defs = withSyntheticDefinitions(JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'deploy', 'openapi', 'kubevirt-openapi-v2.json'), 'utf8')).definitions);

describe('structuralSchemaFor', () => {
  const toy = {
    Root: { type: 'object', properties: {
      metadata: { $ref: '#/definitions/k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
      size: { $ref: '#/definitions/k8s.io.apimachinery.pkg.api.resource.Quantity', description: 'how big' },
      port: { $ref: '#/definitions/k8s.io.apimachinery.pkg.util.intstr.IntOrString' },
      raw: { $ref: '#/definitions/k8s.io.apimachinery.pkg.runtime.RawExtension' },
      template: { $ref: '#/definitions/Template' },
      when: { type: ['string', 'null'] },
      inlinedPort: { type: ['string', 'number'], description: 'a port' },
      items: { type: 'array', items: { default: {}, $ref: '#/definitions/Item' }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] },
      loose: { type: 'array', items: { $ref: '#/definitions/Item' }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['other'] },
      self: { $ref: '#/definitions/Root' },
    } },
    Template: { type: 'object', properties: { metadata: { $ref: '#/definitions/k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta' } } },
    Item: { type: 'object', required: ['name'], properties: { name: { type: 'string', default: '' }, other: { type: 'string' } } },
    'k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta': { type: 'object', properties: { name: { type: 'string' } } },
  };
  const s = structuralSchemaFor(toy, 'Root');
  const p = s.properties ?? {};

  it.each([
    ['root metadata is a plain object', p.metadata, { type: 'object' }],
    ['Quantity is int-or-string with a pattern', p.size, { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true, pattern: QUANTITY_PATTERN, description: 'how big' }],
    ['IntOrString', p.port, { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true }],
    ['RawExtension preserves unknown fields', p.raw, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }],
    ['nested metadata preserves unknown fields', p.template.properties?.metadata, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, nullable: true }],
    ['an inlined IntOrString (type [string, number]) is int-or-string', p.inlinedPort, { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true, description: 'a port' }],
    ['type arrays become nullable', p.when, { type: 'string', nullable: true }],
    ['a recursive reference stops', p.self, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }],
  ])('%s', (_n, actual, expected) => {
    expect(actual).toEqual(expected);
  });

  it('drops defaults and keeps list-type map only when its keys are required', () => {
    expect(JSON.stringify(s)).not.toContain('"default"');
    expect(p.items['x-kubernetes-list-type']).toBe('map');
    expect(p.loose['x-kubernetes-list-type']).toBe('atomic');
  });
});

/** kube's structural rules: every node typed (or int-or-string / preserve-unknown), no $ref, no default. */
function structuralViolations(node: JSONSchemaProps, path: string, out: string[]): string[] {
  if (node.$ref) out.push(`${path}: $ref`);
  if (node.default !== undefined) out.push(`${path}: default`);
  if (!node.type && !node['x-kubernetes-int-or-string'] && !node['x-kubernetes-preserve-unknown-fields']) out.push(`${path}: no type`);
  if (node.properties && node.additionalProperties) out.push(`${path}: properties and additionalProperties`);
  for (const [k, v] of Object.entries(node.properties ?? {})) structuralViolations(v, `${path}.${k}`, out);
  if (node.items) structuralViolations(node.items, `${path}[]`, out);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') structuralViolations(node.additionalProperties, `${path}{}`, out);
  return out;
}

describe('deploy/crds', () => {
  const files = readCRDManifests();

  it('is what scripts/gen-crds.ts generates from deploy/openapi (run it after changing either)', () => {
    const expected = KUBEVIRT_CRD_SPECS.map((spec) => renderCRD(spec, structuralSchemaFor(defs, spec.definition)));
    expect(files.map((c) => c.metadata.name).sort()).toEqual(expected.map((c) => c.metadata.name).sort());
    for (const crd of expected) expect(files.find((f) => f.metadata.name === crd.metadata.name)).toEqual(crd);
  });

  it.each(files.map((c) => [c.metadata.name, c]))('%s has a structural schema', (_name, crd) => {
    expect(structuralViolations((crd as CustomResourceDefinition).spec.versions[0].schema?.openAPIV3Schema ?? {}, '', [])).toEqual([]);
  });

  it('names and shortNames match KubeVirt', () => {
    const names = Object.fromEntries(files.map((c) => [c.spec.names.kind, [c.spec.scope, c.spec.names.shortNames ?? [], c.spec.names.categories ?? []]]));
    expect(names).toEqual({
      VirtualMachine: ['Namespaced', ['vm', 'vms'], ['all']],
      VirtualMachineInstance: ['Namespaced', ['vmi', 'vmis'], ['all']],
      VirtualMachineInstanceMigration: ['Namespaced', ['vmim', 'vmims'], ['all']],
      MigrationPolicy: ['Cluster', [], []],
      KubeVirt: ['Namespaced', ['kv', 'kvs'], ['all']],
      DataVolume: ['Namespaced', ['dv', 'dvs'], ['all']],
      DataSource: ['Namespaced', ['das'], ['all']],
      VirtualMachineSnapshot: ['Namespaced', ['vmsnapshot', 'vmsnapshots'], []],
      VirtualMachineSnapshotContent: ['Namespaced', ['vmsnapshotcontent', 'vmsnapshotcontents'], []],
      VirtualMachineRestore: ['Namespaced', ['vmrestore', 'vmrestores'], []],
      VirtualMachineClone: ['Namespaced', ['vmclone', 'vmclones'], []],
      VirtualMachineInstanceReplicaSet: ['Namespaced', ['vmirs', 'vmirss'], ['all']],
      VirtualMachinePool: ['Namespaced', ['vmpool', 'vmpools'], ['all']],
      VirtualMachineInstancePreset: ['Namespaced', ['vmipreset', 'vmipresets'], ['all']],
      VirtualMachineInstancetype: ['Namespaced', ['vminstancetype', 'vminstancetypes', 'vmf', 'vmfs'], ['all']],
      VirtualMachineClusterInstancetype: ['Cluster', ['vmclusterinstancetype', 'vmclusterinstancetypes', 'vmcf', 'vmcfs'], []],
      VirtualMachinePreference: ['Namespaced', ['vmpref', 'vmprefs', 'vmp', 'vmps'], ['all']],
      VirtualMachineClusterPreference: ['Cluster', ['vmcp', 'vmcps'], []],
    });
  });
});
