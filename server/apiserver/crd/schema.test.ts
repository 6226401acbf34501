import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { KubeObject } from '../../../lib/kubevirt/meta';
import type { VirtualMachine, VirtualMachineSpec } from '../../../lib/kubevirt/vm-types';
import type { VirtualMachineInstance } from '../../../lib/kubevirt/vmi-types';
import type { Disk } from '../../../lib/kubevirt/vmi-spec-types';
import { readCRDManifests } from '../../kube/structural-schema/crd-manifests';
import { resourceTypesFromCRD, type ResourceType } from './resource-type';
import { StrictDecodingError, prepareSchema, validateObject } from './schema';

/** a manifest from testdata/ (the tests break some on purpose) */
const fixture = <T extends KubeObject = KubeObject>(name: string) => parse(readFileSync(join(__dirname, 'testdata', name), 'utf8')) as T;
let types: Map<string, ResourceType>;

beforeAll(() => {
  types = new Map(readCRDManifests().flatMap(resourceTypesFromCRD).map((rt) => [rt.kind, rt]));
});

const check = (obj: KubeObject, fieldValidation: 'Strict' | 'Warn' | 'Ignore' = 'Strict') =>
  validateObject(prepareSchema(types.get(obj.kind as string)!), obj, { fieldValidation });

describe('KubeVirt manifests against deploy/crds', () => {
  it.each([
    'vm-cirros.yaml', 'vm-alpine-datavolume.yaml', 'vmi-masquerade.yaml', 'vmi-running-status.yaml',
    'migration-job.yaml', 'example-migration-policy.yaml',
  ])('%s validates with no unknown fields', (file) => {
    const r = check(fixture(file));
    expect(r.causes).toEqual([]);
    expect(r.unknownFields).toEqual([]);
  });

  it('keeps everything a valid VM carries, metadata and template metadata included', () => {
    const vm = fixture('vm-alpine-datavolume.yaml');
    const kept = check(vm).object as VirtualMachine;
    expect(kept.spec.dataVolumeTemplates?.[0].metadata?.name).toBe('alpine-dv');
    expect(kept.spec.template.metadata?.labels).toEqual({ 'kubevirt.io/vm': 'vm-alpine-datavolume' });
    expect(kept.spec.template.spec.domain.resources?.requests).toEqual({ cpu: '500m', memory: '128Mi' });
  });

  it('accepts a probe port by number or by name (int-or-string, as KubeVirt\'s CRD types it)', () => {
    const vmi = fixture<VirtualMachineInstance>('vmi-masquerade.yaml');
    Object.assign(vmi.spec, { readinessProbe: { tcpSocket: { port: 22 } }, livenessProbe: { httpGet: { port: 'http', path: '/' } } });
    expect(check(vmi).causes).toEqual([]);
  });

  it('keeps null in nullable fields and drops it from the others, as kube does', () => {
    const vmi = fixture<VirtualMachineInstance>('vmi-running-status.yaml');
    Object.assign(vmi.status!, { nodeName: null });
    const r = check(vmi);
    expect(r.causes).toEqual([]);
    const kept = r.object as VirtualMachineInstance;
    expect(kept.status?.conditions?.[0]).toHaveProperty('lastProbeTime', null);
    expect(kept.status).not.toHaveProperty('nodeName');
  });
});

describe('rejections', () => {
  const vm = () => fixture<VirtualMachine>('vm-cirros.yaml');

  it('rejects an unknown field under spec with Strict, naming it as kube does', () => {
    const bad = vm();
    Object.assign(bad.spec, { runStrategyy: 'Always' });
    expect(() => check(bad, 'Strict')).toThrow(StrictDecodingError);
    expect(() => check(bad, 'Strict')).toThrow(
      'VirtualMachine in version "v1" cannot be handled as a VirtualMachine: strict decoding error: unknown field "spec.runStrategyy"',
    );
  });

  it.each([
    ['Warn', ['unknown field "spec.template.spec.domain.devices.disks[0].bogus"']],
    ['Ignore', []],
  ] as const)('prunes unknown fields with %s and warns accordingly', (mode, warnings) => {
    const bad = vm();
    Object.assign(bad.spec.template.spec.domain.devices.disks![0], { bogus: 1 });
    const r = check(bad, mode);
    expect(r.warnings).toEqual(warnings);
    expect((r.object as VirtualMachine).spec.template.spec.domain.devices.disks?.[0]).not.toHaveProperty('bogus');
    expect(r.causes).toEqual([]);
  });

  it('leaves the caller\'s object alone unless it gives it up (inPlace): then prunes that object itself', () => {
    const bad = vm();
    Object.assign(bad.spec.template.spec.domain.devices.disks![0], { bogus: 1 });
    const cs = prepareSchema(types.get('VirtualMachine')!);
    const copied = validateObject(cs, bad, { fieldValidation: 'Ignore' });
    expect(copied.object).not.toBe(bad);
    expect(bad.spec.template.spec.domain.devices.disks![0]).toHaveProperty('bogus', 1);
    const inPlace = validateObject(cs, bad, { fieldValidation: 'Ignore', inPlace: true });
    expect(inPlace.object).toBe(bad);
    expect(bad.spec.template.spec.domain.devices.disks![0]).not.toHaveProperty('bogus');
    expect(inPlace.object).toEqual(copied.object);
  });

  it('prunes unknown metadata fields', () => {
    const bad = vm();
    Object.assign(bad.metadata, { colour: 'blue' });
    expect((check(bad, 'Ignore').object as VirtualMachine).metadata).toEqual({ labels: { 'kubevirt.io/vm': 'vm-cirros' }, name: 'vm-cirros' });
  });

  it.each([
    ['missing spec.template', (o: VirtualMachine) => delete (o.spec as Partial<VirtualMachineSpec>).template, { field: 'spec.template', type: 'FieldValueRequired', message: 'Required value' }],
    ['missing spec', (o: VirtualMachine) => delete (o as Partial<VirtualMachine>).spec, { field: 'spec', type: 'FieldValueRequired' }],
    ['wrong type', (o: VirtualMachine) => Object.assign(o.spec, { running: 'yes' }), {
      field: 'spec.running', type: 'FieldValueTypeInvalid',
      message: 'Invalid value: "string": spec.running in body must be of type boolean: "string"',
    }],
    ['enum', (o: VirtualMachine) => Object.assign(o.spec.template.spec.volumes![0].containerDisk!, { imagePullPolicy: 'Sometimes' }), {
      field: 'spec.template.spec.volumes[0].containerDisk.imagePullPolicy', type: 'FieldValueNotSupported',
      message: 'Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
    }],
    ['quantity that is neither int nor string', (o: VirtualMachine) => Object.assign(o.spec.template.spec.domain.resources!.requests!, { memory: true }), {
      field: 'spec.template.spec.domain.resources.requests.memory', type: 'FieldValueTypeInvalid',
    }],
    ['quantity that does not parse', (o: VirtualMachine) => (o.spec.template.spec.domain.resources!.requests!.memory = '12 apples'), {
      field: 'spec.template.spec.domain.resources.requests.memory', type: 'FieldValueInvalid',
    }],
    ['missing required disk name', (o: VirtualMachine) => delete (o.spec.template.spec.domain.devices.disks![1] as Partial<Disk>).name, {
      field: 'spec.template.spec.domain.devices.disks[1].name', type: 'FieldValueRequired',
    }],
  ])('%s', (_n, mutate, cause) => {
    const bad = vm();
    mutate(bad);
    expect(check(bad).causes).toContainEqual(expect.objectContaining(cause));
  });

  it('accepts any runStrategy string: KubeVirt\'s schema has no enum for it (virt-api\'s webhook checks it)', () => {
    const o = vm();
    delete o.spec.running;
    Object.assign(o.spec, { runStrategy: 'Bogus' });
    expect(check(o).causes).toEqual([]);
  });

  it('does not modify its input', () => {
    const bad = vm();
    Object.assign(bad.spec, { extra: 1 });
    check(bad, 'Ignore');
    expect(bad.spec).toHaveProperty('extra', 1);
  });
});

describe('prepareSchema', () => {
  it('compiles once per resource type', () => {
    const rt = types.get('VirtualMachine')!;
    expect(prepareSchema(rt)).toBe(prepareSchema(rt));
  });

  it('applies structural defaults and prunes to a hand-written schema', () => {
    const rt = resourceTypesFromCRD({
      spec: {
        group: 'example.com', names: { kind: 'Widget', plural: 'widgets' }, scope: 'Namespaced',
        versions: [{
          name: 'v1', served: true, storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: {
            spec: { type: 'object', properties: {
              size: { type: 'integer', default: 3, minimum: 1 },
              tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
              extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            } },
          } } },
        }],
      },
    })[0];
    const cs = prepareSchema(rt);
    const ok = validateObject(cs, { kind: 'Widget', spec: { extra: { anything: [1] } } }, { fieldValidation: 'Strict' });
    expect((ok.object as { spec?: unknown }).spec).toEqual({ size: 3, extra: { anything: [1] } });
    const bad = validateObject(cs, { spec: { size: 0, tags: ['a', 'a'] } }, { fieldValidation: 'Strict' });
    expect(bad.causes.map((c) => [c.field, c.type])).toEqual([
      ['spec.size', 'FieldValueInvalid'],
      ['spec.tags[1]', 'FieldValueDuplicate'],
    ]);
    expect(bad.causes[0].message).toBe('Invalid value: 0: spec.size in body should be greater than or equal to 1');
  });
});
