import { describe, expect, it } from 'vitest';
import { applyVolumeRequest, parseAddVolumeOptions, parseRemoveVolumeOptions, verifyVolumeRequest, type VolumeRequest } from './volume-requests';
import type { Volume } from './vmi-spec-types';

const volumes: Volume[] = [
  { name: 'root', containerDisk: { image: 'demo' } },
  { name: 'data', dataVolume: { name: 'data-dv' } },
  { name: 'hot', persistentVolumeClaim: { claimName: 'hot-pvc', hotpluggable: true } },
];
const add = (name: string, claimName: string): VolumeRequest => ({ addVolumeOptions: { name, disk: { disk: { bus: 'scsi' } }, volumeSource: { persistentVolumeClaim: { claimName, hotpluggable: true } } } });
const remove = (name: string): VolumeRequest => ({ removeVolumeOptions: { name } });

describe('volume hotplug requests', () => {
  it.each([
    [undefined, 'Request with no body, a new name is expected as the request body'],
    [{}, 'AddVolumeOptions requires name to be set'],
    [{ name: 'x' }, 'AddVolumeOptions requires disk to not be nil'],
    [{ name: 'x', disk: {} }, 'AddVolumeOptions requires VolumeSource to not be nil'],
    [{ name: 'x', disk: { disk: { bus: 'virtio' } }, volumeSource: { dataVolume: { name: 'd' } } }, 'hotplugged Disk x does not use a scsi bus'],
  ])('addvolume body %j → %s', (body, message) => {
    expect(parseAddVolumeOptions(body)).toEqual({ error: message });
  });

  it('marks the source hotpluggable and names the disk after the volume', () => {
    expect(parseAddVolumeOptions({ name: 'x', disk: {}, volumeSource: { dataVolume: { name: 'd' } } })).toEqual({ name: 'x', disk: { name: 'x' }, volumeSource: { dataVolume: { name: 'd', hotpluggable: true } }, dryRun: undefined });
    expect(parseRemoveVolumeOptions({})).toEqual({ error: 'RemoveVolumeOptions requires name to be set' });
  });

  it.each([
    [add('data', 'other'), 'Unable to add volume [data] because volume with that name already exists'],
    [add('new', 'hot-pvc'), 'Unable to add volume source [hot-pvc] because it already exists'],
    [remove('nowhere'), 'Unable to remove volume [nowhere] because it does not exist'],
    [remove('data'), 'Unable to remove volume [data] because it is not hotpluggable'],
    [remove('data-dv'), 'Unable to remove volume [data] because it is not hotpluggable'],
    [add('new', 'new-pvc'), undefined],
    [remove('hot'), undefined],
    [remove('hot-pvc'), undefined],
  ])('%j → %s', (req, message) => {
    expect(verifyVolumeRequest(volumes, req)).toBe(message);
  });

  it('adds a SCSI disk and its volume, and removes both by volume or claim name', () => {
    const spec = { volumes, domain: { devices: { disks: [{ name: 'data', disk: { bus: 'virtio' as const } }] } } };
    const added = applyVolumeRequest(spec, { addVolumeOptions: { name: 'new', disk: { serial: 's1' }, volumeSource: { dataVolume: { name: 'dv', hotpluggable: true } } } });
    expect(added.volumes?.at(-1)).toEqual({ name: 'new', dataVolume: { name: 'dv', hotpluggable: true } });
    expect(added.domain.devices?.disks?.at(-1)).toEqual({ name: 'new', serial: 's1', disk: { bus: 'scsi' } });
    const removed = applyVolumeRequest(added, remove('dv'));
    expect(removed.volumes?.map((v) => v.name)).toEqual(['root', 'data', 'hot']);
    expect(removed.domain.devices?.disks?.map((d) => d.name)).toEqual(['data']);
    expect(spec.volumes).toHaveLength(3); // the input is not changed
  });
});
