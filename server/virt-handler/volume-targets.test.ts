import { describe, expect, it } from 'vitest';
import type { VirtualMachineInstance } from '../../lib/kubevirt';
import { withVolumeTargets } from './volume-targets';

function vmi(disks: VirtualMachineInstance['spec']['domain']['devices'], volumes: VirtualMachineInstance['spec']['volumes']): VirtualMachineInstance {
  return { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'x', namespace: 'default' }, spec: { domain: { devices: disks }, volumes } } as VirtualMachineInstance;
}

describe('volumeStatus targets (virt-handler)', () => {
  const spec = vmi(
    { disks: [{ name: 'root', disk: { bus: 'virtio' } }, { name: 'cloudinitdisk', disk: { bus: 'virtio' } }, { name: 'data', disk: { bus: 'scsi' } }, { name: 'hot', disk: { bus: 'scsi' } }] },
    [
      { name: 'root', containerDisk: { image: 'demo' } },
      { name: 'cloudinitdisk', cloudInitNoCloud: { userData: '#cloud-config' } },
      { name: 'data', persistentVolumeClaim: { claimName: 'pvc' } },
      { name: 'hot', persistentVolumeClaim: { claimName: 'hot', hotpluggable: true } },
    ],
  );

  it('one entry per volume with its disk\'s target, sorted by name, claim info kept; a hot-plugged volume gets its target once Ready', () => {
    const out = withVolumeTargets([
      { name: 'data', target: '', persistentVolumeClaimInfo: { claimName: 'pvc' } },
      { name: 'hot', target: '', phase: 'AttachedToNode', hotplugVolume: { attachPodName: 'hp' } },
    ], spec);
    expect(out).toEqual([
      { name: 'cloudinitdisk', target: 'vdb' },
      { name: 'data', target: 'sda', persistentVolumeClaimInfo: { claimName: 'pvc' } },
      { name: 'hot', target: '', phase: 'AttachedToNode', hotplugVolume: { attachPodName: 'hp' } },
      { name: 'root', target: 'vda' },
    ]);
    const ready = withVolumeTargets(out!.map((s) => (s.name === 'hot' ? { ...s, phase: 'Ready' } : s)), spec);
    expect(ready!.find((s) => s.name === 'hot')!.target).toBe('sdb');
  });

  it('is stable: a second pass changes nothing (no status write loop)', () => {
    const once = withVolumeTargets(undefined, spec);
    expect(withVolumeTargets(once, spec)).toEqual(once);
  });
});
