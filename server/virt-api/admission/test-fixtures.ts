/** Fixtures for admission tests: a valid VMI and VM that each test breaks in one place. */
import { withAdmissionDefaults } from './admission-config';

export const config = withAdmissionDefaults();

export function validVMI(): any {
  return {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance',
    metadata: { name: 'vmi1', namespace: 'default' },
    spec: {
      domain: {
        resources: { requests: { memory: '128Mi' } },
        devices: {
          disks: [{ name: 'root', disk: { bus: 'virtio' } }, { name: 'ci', disk: {} }],
          interfaces: [{ name: 'default', masquerade: {} }],
        },
      },
      networks: [{ name: 'default', pod: {} }],
      volumes: [
        { name: 'root', containerDisk: { image: 'quay.io/kubevirt/cirros-container-disk-demo:v1' } },
        { name: 'ci', cloudInitNoCloud: { userData: '#cloud-config\n' } },
      ],
    },
  };
}

export function validVM(): any {
  const vmi = validVMI();
  return {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine',
    metadata: { name: 'vm1', namespace: 'default' },
    spec: { runStrategy: 'Always', template: { metadata: { labels: { app: 'x' } }, spec: vmi.spec } },
  };
}
