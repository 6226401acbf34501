import { describe, expect, it } from 'vitest';
import { resourceTypesFromCRD } from './resource-type';
import { readCRDManifests } from '../../kube/structural-schema/crd-manifests';
import { renderTable, type Table } from './table';
import { humanDuration } from './human-duration';

const NOW = Date.parse('2024-05-01T12:00:00Z');
const rts = readCRDManifests().flatMap(resourceTypesFromCRD);
const rtOf = (kind: string) => rts.find((r) => r.kind === kind)!;

const vmi = {
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance',
  metadata: { name: 'vm1', namespace: 'default', creationTimestamp: '2024-05-01T11:55:00Z' },
  status: {
    phase: 'Running', nodeName: 'node-1', interfaces: [{ ipAddress: '10.244.0.7' }],
    conditions: [{ type: 'Ready', status: 'True' }, { type: 'LiveMigratable', status: 'False' }],
  },
};

const cellsByName = (table: Table, row = 0) =>
  Object.fromEntries(table.columnDefinitions.map((c, i) => [c.name, table.rows[row].cells[i]]));

describe('renderTable', () => {
  it('renders a VMI with KubeVirt\'s columns, Name first', () => {
    const t = renderTable(rtOf('VirtualMachineInstance'), [vmi], { includeObject: 'Metadata', listMeta: { resourceVersion: '42' }, kind: 'VirtualMachineInstance', now: NOW });
    expect(t).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '42' } });
    expect(t.columnDefinitions.map((c) => [c.name, c.priority])).toEqual([
      ['Name', 0], ['Age', 0], ['Phase', 0], ['IP', 0], ['NodeName', 0], ['Ready', 0], ['Live-Migratable', 1], ['Paused', 1],
    ]);
    expect(cellsByName(t)).toEqual({
      Name: 'vm1', Age: '5m', Phase: 'Running', IP: '10.244.0.7', NodeName: 'node-1', Ready: 'True', 'Live-Migratable': 'False', Paused: null,
    });
    expect(t.rows[0].object).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: vmi.metadata });
  });

  it('renders a VM with no status yet as empty cells', () => {
    const vm = { metadata: { name: 'vm-cirros', creationTimestamp: '2024-05-01T11:59:30Z' } };
    const t = renderTable(rtOf('VirtualMachine'), [vm], { includeObject: 'None', listMeta: {}, kind: 'VirtualMachine', now: NOW });
    expect(cellsByName(t)).toEqual({ Name: 'vm-cirros', Age: '30s', Status: null, Ready: null });
    expect(t.rows[0]).not.toHaveProperty('object');
  });

  it('gives a custom resource without printer columns an Age column', () => {
    const t = renderTable(rtOf('MigrationPolicy'), [{ metadata: { name: 'p', creationTimestamp: '2024-04-29T12:00:00Z' } }], { includeObject: 'Object', listMeta: {}, kind: 'MigrationPolicy', now: NOW });
    expect(cellsByName(t)).toEqual({ Name: 'p', Age: '2d' });
    expect(t.rows[0].object).toMatchObject({ metadata: { name: 'p' } });
  });

  it('uses kubectl\'s pod columns for a built-in Pod', () => {
    const pod = {
      metadata: { name: 'virt-launcher-vm1-x', creationTimestamp: '2024-05-01T09:00:00Z' },
      spec: { containers: [{ name: 'compute' }], nodeName: 'node-1' },
      status: { phase: 'Running', podIP: '10.244.0.7', containerStatuses: [{ ready: true, restartCount: 2 }] },
    };
    const t = renderTable(undefined, [pod], { includeObject: 'Metadata', listMeta: {}, kind: 'Pod', now: NOW });
    expect(cellsByName(t)).toEqual({ Name: 'virt-launcher-vm1-x', Ready: '1/1', Status: 'Running', Restarts: '2', Age: '3h', IP: '10.244.0.7', Node: 'node-1' });
  });

  it('falls back to Name and Age for other kinds', () => {
    const t = renderTable(undefined, [{ metadata: { name: 'r1' } }], { includeObject: 'None', listMeta: {}, kind: 'ControllerRevision', now: NOW });
    expect(cellsByName(t)).toEqual({ Name: 'r1', Age: '<unknown>' });
  });
});

describe('humanDuration', () => {
  it.each([
    [5_000, '5s'], [119_000, '119s'], [125_000, '2m5s'], [600_000, '10m'], [3 * 3600_000, '3h'],
    [3.5 * 3600_000, '3h30m'], [30 * 3600_000, '30h'], [50 * 3600_000, '2d2h'], [400 * 86400_000, '400d'],
    [3 * 365 * 86400_000, '3y'], [-500, '0s'],
  ])('%i ms → %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});
