import { describe, expect, it } from 'vitest';
import { readVMISample } from './prometheus-text';

const text = `# HELP kubevirt_vmi_cpu_usage_seconds_total Total CPU time
# TYPE kubevirt_vmi_cpu_usage_seconds_total counter
kubevirt_vmi_cpu_usage_seconds_total{node="node-1",namespace="default",name="vm1"} 12.5
kubevirt_vmi_cpu_usage_seconds_total{node="node-1",namespace="default",name="vm2"} 99
kubevirt_vmi_memory_domain_bytes{node="node-1",namespace="default",name="vm1"} 268435456
kubevirt_vmi_memory_resident_bytes{node="node-1",namespace="other",name="vm1"} 5
kubevirt_vmi_migration_data_remaining_bytes{node="node-1",namespace="default",name="vm1"} 1e6
kubevirt_vmi_network_receive_bytes_total{node="node-1",namespace="default",name="vm1",interface="default"} 7
`;

describe('readVMISample', () => {
  it('picks this VMI\'s samples only', () => {
    expect(readVMISample(text, 'default', 'vm1')).toEqual({ cpuSeconds: 12.5, memoryDomainBytes: 268435456, migration: { remainingBytes: 1e6 } });
  });
  it('is empty for a VMI the node does not run', () => expect(readVMISample(text, 'default', 'nope')).toEqual({}));
});
