import { describe, expect, it } from 'vitest';
import { validateRestoreCreate, validateRestoreUpdate, type RestoreLookups } from './restore-validator';
import { validateRestorePatches } from './restore-patches';
import type { JsonObject } from '../json-shape';

const restore = (spec: JsonObject, name = 'r1'): JsonObject =>
  ({ apiVersion: 'snapshot.kubevirt.io/v1beta1', kind: 'VirtualMachineRestore', metadata: { name, namespace: 'ns' }, spec });
const target = { apiGroup: 'kubevirt.io', kind: 'VirtualMachine', name: 'vm1' };
const spec = (extra: JsonObject = {}): JsonObject => ({ target, virtualMachineSnapshotName: 'snap', ...extra });
const snapshot = (status: JsonObject = { phase: 'Succeeded', readyToUse: true, sourceUID: 'vm-uid' }, source: JsonObject = { apiGroup: 'kubevirt.io', kind: 'VirtualMachine', name: 'vm1' }): JsonObject =>
  ({ metadata: { name: 'snap' }, spec: { source }, status });

function lookups(o: { snap?: JsonObject; vm?: JsonObject; restores?: JsonObject[] } = {}): RestoreLookups {
  return {
    getSnapshot: async (_ns, name) => (name === 'snap' ? o.snap : undefined),
    getVM: async (_ns, name) => (name === 'vm1' ? o.vm : undefined),
    listRestores: async () => o.restores ?? [],
  };
}
const vm = { metadata: { name: 'vm1', uid: 'vm-uid' } };
const messages = async (obj: unknown, l: RestoreLookups) => (await validateRestoreCreate(obj, l)).map((c) => `${c.field}: ${c.message}`);

describe('VirtualMachineRestore admission on create', () => {
  it('accepts a restore onto the VM the snapshot was taken of, running or not, and one to a new VM', async () => {
    expect(await messages(restore(spec()), lookups({ snap: snapshot(), vm }))).toEqual([]);
    expect(await messages(restore(spec({ target: { ...target, name: 'new-vm' } })), lookups({ snap: snapshot(), vm }))).toEqual([]);
    // not ready yet: allowed, the controller waits for it
    expect(await messages(restore(spec()), lookups({ snap: snapshot({ phase: 'InProgress', readyToUse: false, sourceUID: 'vm-uid' }), vm }))).toEqual([]);
    for (const p of ['StopTarget', 'WaitGracePeriod', 'FailImmediate', 'WaitEventually']) {
      expect(await messages(restore(spec({ targetReadinessPolicy: p })), lookups({ snap: snapshot(), vm }))).toEqual([]);
    }
  });

  it.each<[string, JsonObject, Parameters<typeof lookups>[0], string[]]>([
    ['apiGroup missing', spec({ target: { kind: 'VirtualMachine', name: 'vm1' } }), { snap: snapshot() }, ['spec.target.apiGroup: missing apiGroup']],
    ['apiGroup not kubevirt.io', spec({ target: { ...target, apiGroup: 'apps' } }), { snap: snapshot() }, ['spec.target.apiGroup: invalid apiGroup']],
    ['kind not VirtualMachine', spec({ target: { ...target, kind: 'VirtualMachineInstance' } }), { snap: snapshot() }, ['spec.target.kind: invalid kind']],
    ['snapshot missing', spec({ virtualMachineSnapshotName: 'nope' }), { snap: snapshot(), vm }, ['spec.virtualMachineSnapshotName: VirtualMachineSnapshot "nope" does not exist']],
    ['snapshot failed', spec(), { snap: snapshot({ phase: 'Failed', sourceUID: 'vm-uid' }), vm }, ['spec.virtualMachineSnapshotName: VirtualMachineSnapshot "snap" has failed and is invalid to use']],
    ['snapshot of another kind', spec(), { snap: snapshot(undefined, { apiGroup: 'apps', kind: 'StatefulSet', name: 'x' }) },
      ['spec.virtualMachineSnapshotName: VirtualMachineSnapshot "snap" is not of a kubevirt.io VirtualMachine and cannot be restored into one']],
    ['existing target is another VM', spec(), { snap: snapshot(), vm: { metadata: { name: 'vm1', uid: 'other' } } },
      ['spec.virtualMachineSnapshotName: when snapshot source and restore target VMs are different - target VM must not exist']],
    ['another restore of the target in flight', spec(), { snap: snapshot(), vm, restores: [restore(spec(), 'busy'), { ...restore(spec(), 'done'), status: { complete: true } }, restore(spec({ target: { ...target, name: 'vm2' } }), 'other')] },
      ['spec.target: VirtualMachineRestore "busy" in progress']],
    ['unknown targetReadinessPolicy', spec({ targetReadinessPolicy: 'WaitGracePeriodAndFail' }), { snap: snapshot(), vm },
      ['spec.targetReadinessPolicy: spec.targetReadinessPolicy: Unsupported value: "WaitGracePeriodAndFail": supported values: "StopTarget", "WaitGracePeriod", "FailImmediate", "WaitEventually"']],
    ['unknown volumeRestorePolicy', spec({ volumeRestorePolicy: 'Overwrite' }), { snap: snapshot(), vm }, ['spec.volumeRestorePolicy: volume restore policy "Overwrite" doesn\'t exist']],
    ['unknown volumeOwnershipPolicy', spec({ volumeOwnershipPolicy: 'Pod' }), { snap: snapshot(), vm }, ['spec.volumeOwnershipPolicy: volume ownership policy "Pod" doesn\'t exist']],
    ['an override without a volume name or anything to override', spec({ volumeRestoreOverrides: [{ restoreName: 'x' }, { volumeName: 'data' }, { volumeName: 'ok', labels: { a: 'b' } }] }), { snap: snapshot(), vm },
      ['spec.volumeRestoreOverrides[0].volumeName: must provide a volume name', 'spec.volumeRestoreOverrides[1]: must provide at least one overriden field']],
    ['a patch outside /spec/', spec({ patches: ['{"op": "replace", "path": "/metadata/name", "value": "x"}'] }), { snap: snapshot() },
      ['spec.patches: patching is valid only for elements under /spec/ only: "path": "/metadata/name"']],
  ])('%s', async (_n, s, l, want) => {
    expect(await messages(restore(s), lookups(l))).toEqual(want);
  });

  it('answers a body that is not an object, or has no spec, with a cause instead of throwing', async () => {
    expect(await messages('x', lookups())).toEqual([': object in body must be of type object']);
    expect(await messages({ metadata: {} }, lookups())).toEqual(['spec: spec: Required value']);
  });
});

describe('VirtualMachineRestore admission on update', () => {
  it('refuses any change of spec, allows metadata changes', () => {
    const old = restore(spec());
    expect(validateRestoreUpdate({ ...old, metadata: { name: 'r1', labels: { a: 'b' } } }, old)).toEqual([]);
    expect(validateRestoreUpdate(restore(spec({ virtualMachineSnapshotName: 'other' })), old).map((c) => `${c.field}: ${c.message}`))
      .toEqual(['spec: spec in immutable after creation']);
  });
});

describe('spec.patches', () => {
  it.each<[string, unknown, string[]]>([
    ['under /spec/', ['{"op":"replace","path":"/spec/runStrategy","value":"Halted"}'], []],
    ['a label, an annotation', ['{"op":"add","path":"/metadata/labels/app","value":"a:b,c"}', '{"op":"remove","path":"/metadata/annotations/x"}'], []],
    ['the whole labels map (our clone controller)', ['{"op":"add","path":"/metadata/labels","value":{"a":"b"}}'], []],
    ['metadata.name', ['{"op":"replace","path":"/metadata/name","value":"x"}'], ['patching is valid only for elements under /spec/ only: "path": "/metadata/name"']],
    ['/spec itself', ['{"op":"replace","path":"/spec","value":{}}'], ['patching is valid only for elements under /spec/ only: "path": "/spec"']],
    ['/status/', ['{"op":"add","path":"/status/ready","value":true}'], ['patching is valid only for elements under /spec/ only: "path": "/status/ready"']],
    ['a move from outside', ['{"op":"move","from":"/metadata/name","path":"/spec/x"}'], ['patching is valid only for elements under /spec/ only: "from": "/metadata/name"']],
    ['not JSON', ['op=replace'], ['patch format is not valid - not a JSON patch operation: op=replace']],
    ['no path', ['{"op":"add"}'], ['patch format is not valid - a JSON patch operation needs "op" and "path": {"op":"add"}']],
    ['not a string', [{ op: 'add' }], ['patch format is not valid - a patch must be a string holding one JSON patch operation: {"op":"add"}']],
    ['each bad one reported', ['{"op":"add","path":"/a"}', '{"op":"add","path":"/b"}'], ['patching is valid only for elements under /spec/ only: "path": "/a"', 'patching is valid only for elements under /spec/ only: "path": "/b"']],
  ])('%s', (_n, patches, want) => {
    expect(validateRestorePatches(patches).map((c) => c.message)).toEqual(want);
  });
});
