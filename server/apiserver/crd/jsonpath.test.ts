import { describe, expect, it } from 'vitest';
import { JSONPathError, evaluateJSONPath } from './jsonpath';

const vmi = {
  metadata: { name: 'vm1', creationTimestamp: '2024-01-01T00:00:00Z', labels: { 'kubevirt.io/vm': 'vm1' } },
  spec: { domain: { devices: { disks: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } } },
  status: {
    phase: 'Running',
    interfaces: [{ ipAddress: '10.0.0.5', name: 'default' }, { ipAddress: '10.0.1.5' }],
    conditions: [
      { type: 'Ready', status: 'True' },
      { type: 'LiveMigratable', status: 'False' },
    ],
    ports: [{ port: 80 }, { port: 443 }],
  },
};

describe('evaluateJSONPath', () => {
  it.each([
    ['.status.phase', ['Running']],
    ['{.status.phase}', ['Running']],
    ['.status.interfaces[0].ipAddress', ['10.0.0.5']],
    ['.status.interfaces[-1].ipAddress', ['10.0.1.5']],
    ['.status.interfaces[*].ipAddress', ['10.0.0.5', '10.0.1.5']],
    ['.status.interfaces[5].ipAddress', []],
    [".status.conditions[?(@.type=='Ready')].status", ['True']],
    ['.status.conditions[?(@.type=="LiveMigratable")].status', ['False']],
    [".status.conditions[?(@.type=='Paused')].status", []],
    ['.status.conditions[?(@.type!="Ready")].type', ['LiveMigratable']],
    ['.status.ports[?(@.port>100)].port', [443]],
    ['.status.interfaces[?(@.name)].ipAddress', ['10.0.0.5']],
    ['.spec.domain.devices.disks[0:2].name', ['a', 'b']],
    ['.spec.domain.devices.disks[1:].name', ['b', 'c']],
    ["['metadata']['name']", ['vm1']],
    ['.metadata.labels.kubevirt\\.io/vm', ['vm1']],
    [".metadata.labels['kubevirt.io/vm']", ['vm1']],
    ['..ipAddress', ['10.0.0.5', '10.0.1.5']],
    ['.status.nodeName', []],
    ['.status.phase.deeper', []],
    ['$.metadata.name', ['vm1']],
  ])('%s', (expr, expected) => {
    expect(evaluateJSONPath(expr, vmi)).toEqual(expected);
  });

  it.each(['.status[', '.status.[?(]', '.a..[x'])('rejects malformed %s', (expr) => {
    expect(() => evaluateJSONPath(expr, vmi)).toThrow(JSONPathError);
  });
});
