import { describe, expect, it } from 'vitest';
import type { ConverterInput } from './converter-types';
import { resolveVolumeSource } from './qemu-args-volumes';

// hostDisk reads nothing of the input (no image store, no pod dir)
const input = {} as ConverterInput;

describe('hostDisk volumes', () => {
  it('DiskOrCreate: the node file itself, raw, created sparse at its capacity when absent', () => {
    expect(resolveVolumeSource(input, { name: 'data', hostDisk: { path: '/var/lib/vm/disk.img', type: 'DiskOrCreate', capacity: '1Gi' } })).toEqual({
      path: '/var/lib/vm/disk.img', format: 'raw', readOnly: false, files: [{ kind: 'rawDisk', path: '/var/lib/vm/disk.img', sizeBytes: 1024 ** 3 }],
    });
  });

  it('Disk: the file must already exist (checked when the launcher prepares files)', () => {
    expect(resolveVolumeSource(input, { name: 'data', hostDisk: { path: '/srv/d.img', type: 'Disk' } })?.files).toEqual([{ kind: 'mustExist', path: '/srv/d.img', what: 'spec.volumes[data].hostDisk' }]);
  });

  it('refuses a relative path and a DiskOrCreate without capacity', () => {
    expect(() => resolveVolumeSource(input, { name: 'd', hostDisk: { path: 'disk.img', type: 'Disk' } })).toThrow('must be an absolute path');
    expect(() => resolveVolumeSource(input, { name: 'd', hostDisk: { path: '/d.img', type: 'DiskOrCreate' } })).toThrow('capacity: required');
  });
});
