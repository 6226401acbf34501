import { describe, expect, it } from 'vitest';
import { cloneProblem, clonePatches, keepKey, targetNameOf, type VMClone } from './clone-plan';

const clone = (spec: VMClone['spec']): VMClone => ({ metadata: { name: 'c', namespace: 'ns', uid: '0123456789abcdef' }, spec });

describe('VirtualMachineClone planning', () => {
  it.each([
    ['app', undefined, true],
    ['app', ['*'], true],
    ['secret/token', ['*', '!secret/*'], false],
    ['secret/token', ['!secret/*', '*'], true],
    ['kubevirt.io/x', ['kubevirt.io/*'], true],
    ['other', ['kubevirt.io/*'], false],
  ])('key %s with filters %j is kept: %s', (key, filters, kept) => expect(keepKey(key, filters)).toBe(kept));

  it('refuses what KubeVirt refuses', () => {
    expect(cloneProblem(clone({}))).toBe('spec.source.name is required');
    expect(cloneProblem(clone({ source: { kind: 'Pod', name: 'x' } }))).toContain('not supported');
    expect(cloneProblem(clone({ source: { kind: 'VirtualMachine', name: 'x' }, target: { kind: 'VirtualMachine', name: 'x' } }))).toBe('target name must differ from the source VM');
    expect(cloneProblem(clone({ source: { kind: 'VirtualMachineSnapshot', name: 's' } }))).toBeUndefined();
  });

  it('names the target when the clone does not', () => {
    expect(targetNameOf(clone({ source: { kind: 'VirtualMachine', name: 'x' } }))).toBe('clone-01234567');
  });

  it('patches the restored VM: filtered metadata, new MACs, the serial, then the user\'s patches', () => {
    const source = {
      metadata: { labels: { app: 'web', 'secret/x': '1' }, annotations: { note: 'n' } },
      spec: { template: { metadata: { labels: { 'kubevirt.io/vm': 'web' } }, spec: { domain: { firmware: { bootloader: {} }, devices: { interfaces: [{ name: 'default' }, { name: 'second' }] } } } } },
    };
    const patches = clonePatches(clone({ source: { kind: 'VirtualMachine', name: 'web' }, labelFilters: ['*', '!secret/*'], newMacAddresses: { second: '02:00:00:00:00:09' }, newSMBiosSerial: 'S1', patches: ['{"op":"add","path":"/spec/runStrategy","value":"Halted"}'] }), source).map((p) => JSON.parse(p));
    expect(patches).toEqual([
      { op: 'add', path: '/metadata/labels', value: { app: 'web' } },
      { op: 'add', path: '/metadata/annotations', value: { note: 'n' } },
      { op: 'add', path: '/spec/template/metadata/labels', value: { 'kubevirt.io/vm': 'web' } },
      { op: 'add', path: '/spec/template/metadata/annotations', value: {} },
      { op: 'add', path: '/spec/template/spec/domain/devices/interfaces/1/macAddress', value: '02:00:00:00:00:09' },
      { op: 'add', path: '/spec/template/spec/domain/firmware/serial', value: 'S1' },
      { op: 'add', path: '/spec/runStrategy', value: 'Halted' },
    ]);
  });
});
