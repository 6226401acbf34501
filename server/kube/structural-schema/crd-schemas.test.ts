import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEPLOY_CRDS_DIR, readCRDManifests } from './crd-manifests';
import { crdSchema, findCRD, guessPlural, schemaAt } from './crd-schemas';

const crdYaml = (group: string, kind: string, plural: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: ${plural}.${group}}
spec:
  group: ${group}
  names: {kind: ${kind}, plural: ${plural}}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}}}}}}
`;

function crdDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'crd-schemas-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('findCRD', () => {
  it('reads only the <group>_<plural>.yaml file of the kind when it declares it', () => {
    // the other file is not YAML at all: parsing it would throw
    const dir = crdDir({ 'a.example.io_aaas.yaml': ': : [\n', 'example.io_widgets.yaml': crdYaml('example.io', 'Widget', 'widgets') });
    expect(findCRD('example.io', 'Widget', dir)?.spec.names.plural).toBe('widgets');
  });

  it('falls back to every file for a kind whose file is named otherwise', () => {
    const dir = crdDir({ 'gadgets.yaml': crdYaml('example.io', 'Gadget', 'gadgetry'), 'example.io_widgets.yaml': crdYaml('example.io', 'Widget', 'widgets') });
    expect(findCRD('example.io', 'Gadget', dir)?.spec.names.plural).toBe('gadgetry');
    expect(findCRD('example.io', 'Missing', dir)).toBeUndefined();
  });

  it('does not take a same-named file of another group', () => {
    const dir = crdDir({ 'example.io_widgets.yaml': crdYaml('other.io', 'Widget', 'widgets') });
    expect(findCRD('example.io', 'Widget', dir)).toBeUndefined();
  });
});

describe('guessPlural', () => {
  it('names every CRD file of deploy/crds from its kind', () => {
    expect(['VirtualMachineInstance', 'MigrationPolicy', 'VirtualMachineInstanceMigration', 'StorageClass', 'Box'].map(guessPlural))
      .toEqual(['virtualmachineinstances', 'migrationpolicies', 'virtualmachineinstancemigrations', 'storageclasses', 'boxes']);
  });
});

describe('crdSchema (deploy/crds)', () => {
  it('finds the VMI spec in kubevirt.io_virtualmachineinstances.yaml', () => {
    expect(findCRD('kubevirt.io', 'VirtualMachineInstance')?.spec.names.plural).toBe('virtualmachineinstances');
    const spec = schemaAt(crdSchema('kubevirt.io', 'VirtualMachineInstance'), 'spec');
    expect(spec?.properties?.has('domain')).toBe(true);
  });

  it('finds every CRD of deploy/crds by its own file name, so none costs a parse of them all', () => {
    for (const crd of readCRDManifests()) {
      expect(existsSync(join(DEPLOY_CRDS_DIR, `${crd.spec.group}_${guessPlural(crd.spec.names.kind)}.yaml`)), crd.spec.names.kind).toBe(true);
    }
  });

  it('throws for a kind deploy/crds does not declare', () => {
    expect(() => crdSchema('kubevirt.io', 'NoSuchKind')).toThrow(/no CustomResourceDefinition for NoSuchKind.kubevirt.io/);
  });
});
