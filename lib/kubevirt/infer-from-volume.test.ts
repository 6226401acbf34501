import { describe, expect, it } from 'vitest';
import { inferMatchers, InferenceError, type VolumeSourceLookups } from './infer-from-volume';
import type { InstancetypeMatcher, VirtualMachine } from './vm-types';
import type { Volume } from './vmi-spec-types';

const IT = 'instancetype.kubevirt.io/default-instancetype';
const IT_KIND = 'instancetype.kubevirt.io/default-instancetype-kind';
const PREF = 'instancetype.kubevirt.io/default-preference';
const PREF_KIND = 'instancetype.kubevirt.io/default-preference-kind';

type Obj = { labels?: Record<string, string>; spec?: Record<string, unknown> };
/** lookups over `ns/name` maps; records every read */
function world(objs: { pvc?: Record<string, Obj>; dv?: Record<string, Obj>; ds?: Record<string, Obj> }) {
  const reads: string[] = [];
  const get = (kind: string, map: Record<string, Obj> | undefined) => (ns: string, name: string) => {
    reads.push(`${kind} ${ns}/${name}`);
    return Promise.resolve(map?.[`${ns}/${name}`]);
  };
  const l: VolumeSourceLookups = { pvc: get('pvc', objs.pvc), dataVolume: get('dv', objs.dv) as VolumeSourceLookups['dataVolume'], dataSource: get('ds', objs.ds) as VolumeSourceLookups['dataSource'] };
  return { l, reads };
}

const infer = (volume = 'root', policy?: 'Ignore' | 'Reject'): InstancetypeMatcher => ({ name: '', inferFromVolume: volume, ...(policy ? { inferFromVolumeFailurePolicy: policy } : {}) }) as InstancetypeMatcher;
function vm(volumes: Volume[], opts: { it?: InstancetypeMatcher; pref?: InstancetypeMatcher; dvt?: VirtualMachine['spec']['dataVolumeTemplates']; memory?: boolean } = {}): VirtualMachine {
  const m = { ...opts };
  for (const k of ['it', 'pref'] as const) if (m[k]) delete (m[k] as Partial<InstancetypeMatcher>).name;
  return {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name: 'vm', namespace: 'ns' },
    spec: {
      runStrategy: 'Halted' as never,
      ...(m.it ? { instancetype: m.it } : {}),
      ...(m.pref ? { preference: m.pref } : {}),
      ...(opts.dvt ? { dataVolumeTemplates: opts.dvt } : {}),
      template: { spec: { domain: { devices: {}, ...(opts.memory ? { memory: { guest: '1Gi' } } : {}) }, volumes } },
    },
  };
}
const pvcVol: Volume = { name: 'root', persistentVolumeClaim: { claimName: 'disk' } };
const dvVol: Volume = { name: 'root', dataVolume: { name: 'disk' } };
const labelled = { labels: { [IT]: 'u1.small', [PREF]: 'fedora', [PREF_KIND]: 'VirtualMachinePreference' } };

async function failure(p: Promise<unknown>): Promise<InferenceError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(InferenceError);
  return err as InferenceError;
}

describe('inferMatchers: where the labels come from', () => {
  it('a PVC volume: its labels name the instance type and the preference with its kind', async () => {
    const { l } = world({ pvc: { 'ns/disk': labelled } });
    const out = await inferMatchers(vm([pvcVol], { it: infer(), pref: infer() }), l);
    expect(out.spec.instancetype).toEqual({ name: 'u1.small' });
    expect(out.spec.preference).toEqual({ name: 'fedora', kind: 'VirtualMachinePreference' });
  });

  it('the instance type kind label is carried over', async () => {
    const { l } = world({ pvc: { 'ns/disk': { labels: { [IT]: 'mine', [IT_KIND]: 'VirtualMachineInstancetype' } } } });
    expect((await inferMatchers(vm([pvcVol], { it: infer() }), l)).spec.instancetype).toEqual({ name: 'mine', kind: 'VirtualMachineInstancetype' });
  });

  it('a DataVolume: its own labels first, then the PVC it clones', async () => {
    const own = world({ dv: { 'ns/disk': labelled } });
    expect((await inferMatchers(vm([dvVol], { it: infer() }), own.l)).spec.instancetype).toEqual({ name: 'u1.small' });
    const clone = world({ dv: { 'ns/disk': { spec: { source: { pvc: { name: 'golden', namespace: 'images' } } } } }, pvc: { 'images/golden': { labels: { [IT]: 'cx1.large' } } } });
    expect((await inferMatchers(vm([dvVol], { it: infer() }), clone.l)).spec.instancetype).toEqual({ name: 'cx1.large' });
    expect(clone.reads).toEqual(['dv ns/disk', 'pvc images/golden']);
  });

  it('a DataVolume that is gone: the PVC of the same name', async () => {
    const { l, reads } = world({ pvc: { 'ns/disk': labelled } });
    expect((await inferMatchers(vm([dvVol], { it: infer() }), l)).spec.instancetype).toEqual({ name: 'u1.small' });
    expect(reads).toEqual(['dv ns/disk', 'pvc ns/disk']);
  });

  it('a DataVolumeTemplate: its sourceRef DataSource (in the VM namespace), then the DataSource PVC', async () => {
    const dvt = [{ metadata: { name: 'disk' }, spec: { sourceRef: { kind: 'DataSource', name: 'fedora' } } }];
    const own = world({ ds: { 'ns/fedora': labelled } });
    expect((await inferMatchers(vm([dvVol], { it: infer(), dvt }), own.l)).spec.instancetype).toEqual({ name: 'u1.small' });
    expect(own.reads).toEqual(['ds ns/fedora']);
    const viaPvc = world({ ds: { 'ns/fedora': { spec: { source: { pvc: { name: 'img', namespace: 'os-images' } } } } }, pvc: { 'os-images/img': { labels: { [IT]: 'u1.medium' } } } });
    expect((await inferMatchers(vm([dvVol], { it: infer(), dvt }), viaPvc.l)).spec.instancetype).toEqual({ name: 'u1.medium' });
  });

  it('leaves a matcher that names its object alone and never mutates its input', async () => {
    const { l, reads } = world({});
    const input = vm([pvcVol]);
    input.spec.instancetype = { name: 'u1.small' };
    const out = await inferMatchers(input, l);
    expect(out.spec.instancetype).toEqual({ name: 'u1.small' });
    expect(reads).toEqual([]);
    const withInfer = vm([pvcVol], { it: infer() });
    await inferMatchers(withInfer, world({ pvc: { 'ns/disk': labelled } }).l);
    expect(withInfer.spec.instancetype).toEqual({ inferFromVolume: 'root' });
  });
});

describe('inferMatchers: failures in KubeVirt words, and the Ignore policy', () => {
  const noLabel = world({ pvc: { 'ns/disk': { labels: {} } } }).l;
  it.each([
    ['no such volume', vm([pvcVol], { it: infer('data') }), world({}).l, 'unable to find volume data to infer defaults', false],
    ['a PVC without the label', vm([pvcVol], { it: infer() }), noLabel, `unable to find required ${IT} label on the volume`, true],
    ['a PVC without the preference label', vm([pvcVol], { pref: infer() }), noLabel, `unable to find required ${PREF} label on the volume`, true],
    ['a containerDisk', vm([{ name: 'root', containerDisk: { image: 'demo' } }], { it: infer() }), world({}).l, 'unable to infer defaults from volume root as type is not supported', true],
    ['a missing PVC', vm([pvcVol], { it: infer() }), world({}).l, 'persistentvolumeclaims "disk" not found', false],
    ['a DataVolumeTemplate importing from a URL', vm([dvVol], { it: infer(), dvt: [{ metadata: { name: 'disk' }, spec: { source: { http: { url: 'x' } } } }] }), world({}).l, 'unable to infer defaults from DataVolumeSpec as DataVolumeSource is not supported', true],
    ['a sourceRef of another kind', vm([dvVol], { it: infer(), dvt: [{ metadata: { name: 'disk' }, spec: { sourceRef: { kind: 'Snapshot', name: 's' } } }] }), world({}).l, 'unable to infer defaults from DataVolumeSourceRef as Kind Snapshot is not supported', true],
    ['a DataSource with neither label nor PVC', vm([dvVol], { it: infer(), dvt: [{ metadata: { name: 'disk' }, spec: { sourceRef: { kind: 'DataSource', name: 'f' } } }] }), world({ ds: { 'ns/f': { spec: { source: {} } } } }).l, "unable to infer defaults from DataSource that doesn't provide DataVolumeSourcePVC", true],
  ])('%s → refused', async (_what, input, l, message, ignorable) => {
    const err = await failure(inferMatchers(input, l));
    expect(err.message).toBe(message);
    expect(err.ignorable).toBe(ignorable);
  });

  it('Ignore: a missing label drops the matcher and keeps the fallback memory', async () => {
    const out = await inferMatchers(vm([pvcVol], { it: infer('root', 'Ignore'), pref: infer('root', 'Ignore'), memory: true }), noLabel);
    expect(out.spec.instancetype).toBeUndefined();
    expect(out.spec.preference).toBeUndefined();
    expect(out.spec.template.spec.domain.memory).toEqual({ guest: '1Gi' });
  });

  it('Ignore: a found instance type drops the fallback memory (it would conflict)', async () => {
    const out = await inferMatchers(vm([pvcVol], { it: infer('root', 'Ignore'), memory: true }), world({ pvc: { 'ns/disk': labelled } }).l);
    expect(out.spec.instancetype).toEqual({ name: 'u1.small' });
    expect(out.spec.template.spec.domain.memory).toBeUndefined();
  });

  it('Ignore does not hide a volume that does not exist, nor a missing PVC', async () => {
    expect((await failure(inferMatchers(vm([pvcVol], { it: infer('data', 'Ignore') }), world({}).l))).message).toBe('unable to find volume data to infer defaults');
    expect((await failure(inferMatchers(vm([pvcVol], { pref: infer('root', 'Ignore') }), world({}).l))).message).toBe('persistentvolumeclaims "disk" not found');
  });

  it('Reject (the default) refuses on a missing label', async () => {
    await failure(inferMatchers(vm([pvcVol], { it: infer('root', 'Reject') }), noLabel));
  });
});
