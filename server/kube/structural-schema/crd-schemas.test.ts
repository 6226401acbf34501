import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crdSchema, findCRD, schemaAt } from './crd-schemas';

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

describe('crdSchema (deploy/crds)', () => {
  it('finds the VMI spec in kubevirt.io_virtualmachineinstances.yaml', () => {
    expect(findCRD('kubevirt.io', 'VirtualMachineInstance')?.spec.names.plural).toBe('virtualmachineinstances');
    const spec = schemaAt(crdSchema('kubevirt.io', 'VirtualMachineInstance'), 'spec');
    expect(spec?.properties?.has('domain')).toBe(true);
  });

  it('throws for a kind deploy/crds does not declare', () => {
    expect(() => crdSchema('kubevirt.io', 'NoSuchKind')).toThrow(/no CustomResourceDefinition for NoSuchKind.kubevirt.io/);
  });
});
