import { describe, expect, it } from 'vitest';
import type { VirtualMachine } from '@/lib/kubevirt';
import { launcherLabels, serviceRows } from './vm-services';

const vm = { metadata: { name: 'web', namespace: 'default' }, spec: { template: { metadata: { labels: { app: 'shop' } }, spec: { domain: { devices: {} } } } } } as unknown as VirtualMachine;

describe('Services of a VM', () => {
  const labels = launcherLabels(vm);

  it('the launcher Pod carries the template labels and KubeVirt\'s', () => {
    expect(labels).toEqual({ app: 'shop', 'kubevirt.io': 'virt-launcher', 'vm.kubevirt.io/name': 'web', 'vmi.kubevirt.io/id': 'web' });
  });

  it('lists Services whose whole selector matches, with ports, target ports and node ports', () => {
    const rows = serviceRows([
      { metadata: { name: 'web-ssh' }, spec: { type: 'NodePort', clusterIP: '10.96.0.20', selector: { 'vmi.kubevirt.io/id': 'web' }, ports: [{ port: 22, targetPort: 22, nodePort: 30022, protocol: 'TCP' }] } },
      { metadata: { name: 'shop' }, spec: { clusterIP: '10.96.0.21', selector: { app: 'shop' }, ports: [{ port: 80, targetPort: 8080 }] } },
      { metadata: { name: 'other' }, spec: { selector: { app: 'shop', tier: 'db' }, ports: [{ port: 5432 }] } },
      { metadata: { name: 'no-selector' }, spec: { ports: [{ port: 1 }] } },
    ], labels);
    expect(rows).toEqual([
      { name: 'shop', type: 'ClusterIP', clusterIP: '10.96.0.21', ports: '80→8080/TCP' },
      { name: 'web-ssh', type: 'NodePort', clusterIP: '10.96.0.20', ports: '22/TCP (node 30022)' },
    ]);
  });
});
