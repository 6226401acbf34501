import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import { attachmentPodName, planAttachmentPods, renderAttachmentPod, withHotplugVolumeStatus } from './hotplug-pods';

const vmi = (phase = 'Running'): VirtualMachineInstance => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance',
  metadata: { name: 'vm1', namespace: 'default', uid: 'u-1' },
  spec: {
    domain: { devices: { disks: [{ name: 'hot', serial: 'h' }] } },
    volumes: [{ name: 'root', containerDisk: { image: 'demo' } }, { name: 'hot', dataVolume: { name: 'hot-dv', hotpluggable: true } }],
  },
  status: { phase: phase as never, nodeName: 'node-2' },
});
const lookup = (dvPhase = 'Succeeded') => ({
  claim: (_ns: string, n: string) => (n === 'hot-dv' ? { metadata: { name: n } } : undefined),
  dataVolume: () => ({ status: { phase: dvPhase } }),
});
const pod = (phase: string): V1Pod => ({ ...renderAttachmentPod(vmi(), { volume: 'hot', claimName: 'hot-dv', dataVolume: true, readOnly: false, hotpluggable: true }), status: { phase } });

describe('hot-plug attachment pods', () => {
  it('one per hot-plugged claim, pinned to the VMI node, owned by the VMI', () => {
    const p = renderAttachmentPod(vmi(), { volume: 'hot', claimName: 'hot-dv', dataVolume: true, readOnly: false, hotpluggable: true });
    expect(p.metadata?.name).toBe('hp-volume-vm1-hot');
    expect(p.spec?.nodeSelector).toEqual({ 'kubernetes.io/hostname': 'node-2' });
    expect(p.spec?.volumes).toEqual([{ name: 'hot', persistentVolumeClaim: { claimName: 'hot-dv' } }]);
    expect(p.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'VirtualMachineInstance', uid: 'u-1', controller: true });
    expect(attachmentPodName({ ...vmi(), metadata: { name: 'x'.repeat(60), uid: 'abcdef0123' } }, 'vol').length).toBeLessThanOrEqual(63);
  });

  it('waits for the DataVolume, creates once, removes pods of volumes gone from the spec', () => {
    expect(planAttachmentPods(vmi(), [], lookup('ImportInProgress')).create).toEqual([]);
    expect(planAttachmentPods(vmi('Scheduled'), [], lookup()).create).toEqual([]);
    expect(planAttachmentPods(vmi(), [], lookup()).create.map((c) => c.volume)).toEqual(['hot']);
    expect(planAttachmentPods(vmi(), [pod('Running')], lookup())).toEqual({ create: [], remove: [] });
    const without = { ...vmi(), spec: { ...vmi().spec, volumes: [vmi().spec.volumes![0]] } };
    expect(planAttachmentPods(without, [pod('Running')], lookup()).remove).toHaveLength(1);
  });

  it('volumeStatus: Pending, AttachedToNode once the pod runs; Ready (virt-handler) is kept; removed entries go once not Ready', () => {
    expect(withHotplugVolumeStatus(undefined, vmi(), [])?.[0]).toMatchObject({ name: 'hot', phase: 'Pending' });
    const attached = withHotplugVolumeStatus(undefined, vmi(), [pod('Running')])![0];
    expect(attached).toMatchObject({ phase: 'AttachedToNode', hotplugVolume: { attachPodName: 'hp-volume-vm1-hot' } });
    const ready = { ...attached, phase: 'Ready', target: 'sda' };
    expect(withHotplugVolumeStatus([ready], vmi(), [pod('Running')])).toEqual([ready]);
    const without = { ...vmi(), spec: { ...vmi().spec, volumes: [vmi().spec.volumes![0]] } };
    expect(withHotplugVolumeStatus([ready], without, [])).toEqual([ready]);
    expect(withHotplugVolumeStatus([attached], without, [])).toBeUndefined();
  });
});
