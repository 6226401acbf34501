/**
 * Hot-plugged disks on a running domain: each is a raw file (a claim's disk.img or its Block file)
 * attached as a SCSI disk on the controller every domain has (`scsi0`), with the same node names as
 * boot disks (`drive-<name>`, device `ua-<name>`), so migration and stats treat them alike. The
 * set is level-triggered: `sync(wanted)` attaches what is missing and detaches what is not wanted.
 */
import { join } from 'node:path';
import type { QmpClient, QmpEvent } from './qmp-client';
import type { HotplugDisk } from './protocol';
import { createDomainFiles } from './prepare-files';

const DISK_IMAGE = 'disk.img';
const UNPLUG_TIMEOUT_MS = 10_000;
/** SCSI targets of hot-plugged disks: sda, sdb, … in the order they were attached */
const targetName = (i: number) => `sd${String.fromCharCode(97 + i)}`;

type Events = { on(e: 'qmpEvent', f: (e: QmpEvent) => void): unknown; off(e: 'qmpEvent', f: (e: QmpEvent) => void): unknown };

export class HotplugDisks {
  private readonly attached = new Map<string, { path: string; lun: number }>();

  /** `handOver`: makes a disk file usable by QEMU's user before it opens it (launcher-qemu-user.ts) */
  constructor(private readonly qmp: () => QmpClient, private readonly events: Events, private readonly handOver: (file: string, readOnly: boolean) => void = () => undefined) {}

  async sync(wanted: HotplugDisk[]): Promise<{ name: string; target: string }[]> {
    const names = new Set(wanted.map((d) => d.name));
    for (const name of [...this.attached.keys()]) if (!names.has(name)) await this.detach(name);
    for (const d of wanted) if (!this.attached.has(d.name)) await this.attach(d);
    return [...this.attached].map(([name, a]) => ({ name, target: targetName(a.lun) }));
  }

  private freeLun(): number {
    const used = new Set([...this.attached.values()].map((a) => a.lun));
    let lun = 0;
    while (used.has(lun)) lun++;
    return lun;
  }

  private async attach(d: HotplugDisk): Promise<void> {
    const file = d.block ? d.path : join(d.path, DISK_IMAGE);
    if (!d.block && d.capacityBytes && !d.readOnly) await createDomainFiles([{ kind: 'rawDisk', path: file, sizeBytes: d.capacityBytes }]);
    this.handOver(file, d.readOnly === true);
    const node = `drive-${d.name}`;
    const qmp = this.qmp();
    await qmp.execute('blockdev-add', {
      'node-name': node, driver: 'raw', 'read-only': d.readOnly === true, discard: 'unmap',
      file: { driver: 'file', filename: file, 'read-only': d.readOnly === true },
    });
    const lun = this.freeLun();
    try {
      await qmp.execute('device_add', { driver: 'scsi-hd', bus: 'scsi0.0', 'scsi-id': 0, lun, drive: node, id: `ua-${d.name}`, ...(d.serial ? { serial: d.serial } : {}) });
    } catch (err) {
      await qmp.execute('blockdev-del', { 'node-name': node }).catch(() => undefined);
      throw err;
    }
    this.attached.set(d.name, { path: file, lun });
  }

  private async detach(name: string): Promise<void> {
    const qmp = this.qmp();
    const id = `ua-${name}`;
    let onEvent: (e: QmpEvent) => void = () => undefined;
    const deleted = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, UNPLUG_TIMEOUT_MS);
      onEvent = (e) => { if (e.event === 'DEVICE_DELETED' && e.data?.device === id) { clearTimeout(timer); resolve(); } };
      this.events.on('qmpEvent', onEvent);
    });
    await qmp.execute('device_del', { id });
    await deleted.finally(() => this.events.off('qmpEvent', onEvent));
    await qmp.execute('blockdev-del', { 'node-name': `drive-${name}` });
    this.attached.delete(name);
  }
}
