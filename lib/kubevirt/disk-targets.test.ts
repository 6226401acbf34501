import { describe, expect, it } from 'vitest';
import { diskTargets, formatDeviceName } from './disk-targets';

describe('disk targets (KubeVirt\'s device names)', () => {
  it('writes indexes as the kernel does: a…z, aa…zz, aaa', () => {
    expect([0, 1, 25, 26, 27, 51, 52, 701, 702].map((i) => formatDeviceName('sd', i))).toEqual(['sda', 'sdb', 'sdz', 'sdaa', 'sdab', 'sdaz', 'sdba', 'sdzz', 'sdaaa']);
  });

  it('numbers each prefix in disk order with KubeVirt\'s bus defaults (disk virtio, cdrom sata, lun scsi)', () => {
    const t = diskTargets([
      { name: 'root', disk: {} },
      { name: 'iso', cdrom: {} },
      { name: 'cloudinit', disk: { bus: 'virtio' } },
      { name: 'legacy', disk: { bus: 'sata' } },
      { name: 'shared', lun: {} },
      { name: 'stick', disk: { bus: 'usb' } },
    ]);
    expect(Object.fromEntries(t)).toEqual({ root: 'vda', iso: 'sda', cloudinit: 'vdb', legacy: 'sdb', shared: 'sdc', stick: 'sdd' });
  });

  it('keeps a target already reported, so a hot-plugged disk never renames the others', () => {
    const t = diskTargets([{ name: 'root', disk: { bus: 'sata' } }, { name: 'hot', disk: { bus: 'scsi' } }, { name: 'data', disk: { bus: 'sata' } }], { hot: 'sdb', root: 'sda' });
    expect(Object.fromEntries(t)).toEqual({ root: 'sda', hot: 'sdb', data: 'sdc' });
  });

  it('ignores a reported target that no longer fits the bus or is taken twice', () => {
    const t = diskTargets([{ name: 'a', disk: { bus: 'virtio' } }, { name: 'b', disk: { bus: 'sata' } }, { name: 'c', disk: { bus: 'sata' } }], { a: 'sda', b: 'sda', c: 'sda' });
    expect(Object.fromEntries(t)).toEqual({ a: 'vda', b: 'sda', c: 'sdb' });
  });
});
