/**
 * The demo guest's persistent disks under real QEMU (TCG): a blank disk is formatted and mounted
 * on /mnt/<serial> at first boot, a file written there survives a poweroff and a second boot
 * with the same disk file, a disk with unknown content is left alone, the cloud-init media is
 * not touched, and a SCSI disk hot-plugged later is formatted, mounted, and unmounted when unplugged.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeNoCloudMedia } from './cloud-init-media';
import { buildDemoImage } from './demo-build';
import { importDemoImage, resolveImage, type ImageEntry } from './image-store';
import { startDemoGuest, type DemoGuest } from './testing/demo-guest';

const BOOT_BOUND_MS = 30_000;
const STOP_BOUND_MS = 15_000;
const TEST_TIMEOUT_MS = 120_000;

let work: string;
let demo: ImageEntry;
let guest: DemoGuest | undefined;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'kv-demo-disks-'));
  await importDemoImage(join(work, 'images'), await buildDemoImage({ quiet: true }));
  demo = resolveImage(join(work, 'images'), 'demo')!;
}, 180_000);

afterEach(async () => {
  await guest?.stop();
  guest = undefined;
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function sparseFile(path: string, bytes: number): Promise<void> {
  const f = await open(path, 'w');
  await f.truncate(bytes);
  await f.close();
}

/** Logs in as root on the serial console and waits for the shell prompt. */
async function loginRoot(g: DemoGuest): Promise<void> {
  await g.waitForSerial(/vm-disks login:/, BOOT_BOUND_MS);
  g.type('root\n');
  await g.waitForSerial(/root@vm-disks:~# /, BOOT_BOUND_MS);
}

function diskLines(serial: string): string[] {
  return serial.split(/\r?\n/).filter((l) => l.startsWith('demo-disk: '));
}

describe('demo guest disks', () => {
  it('formats a blank disk, mounts it on /mnt/<serial>, and keeps a file written there across a restart; mounts a hot-plugged SCSI disk', async () => {
    const t0 = Date.now();
    const media = join(work, 'nocloud.iso');
    await makeNoCloudMedia({ outFile: media, metaData: 'instance-id: disks\nlocal-hostname: vm-disks\n' });
    const blank = join(work, 'data.raw');
    await sparseFile(blank, 64 * 1024 * 1024);
    const junk = join(work, 'junk.raw');
    await writeFile(junk, randomBytes(64 * 1024));
    // the demo image's own disk, as the launcher gives it: an overlay on the store's read-only file
    const scratch = join(work, 'scratch.qcow2');
    execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', '-F', 'qcow2', '-b', demo.disk!, scratch]);
    const disks = [{ file: scratch, format: 'qcow2' as const }, { file: blank, serial: 'data1' }, { file: junk }];

    guest = startDemoGuest({ image: demo, runDir: work, drives: [media], disks });
    const formattedMs = await guest.waitForSerial(/demo-disk: \/dev\/vd[a-z] formatted ext2, mounted on \/mnt\/data1\r?\n/, BOOT_BOUND_MS);
    process.stderr.write(`demo guest: QEMU start to "formatted ext2" in ${formattedMs} ms\n`);
    await loginRoot(guest);
    // /data is the first disk mounted that is not the image's scratch disk; the answer only
    // appears once the shell has computed it.
    guest.type('echo "kept $((6 * 7))" > /data/note.txt && cat /mnt/data1/note.txt\n');
    await guest.waitForSerial(/kept 42\r?\n/, BOOT_BOUND_MS);
    guest.type('poweroff\n');
    expect(await guest.waitForExit(STOP_BOUND_MS)).toBe(0);
    const first = guest.serial();
    // one line per disk at boot and at shutdown: the scratch disk mounted, the blank one
    // formatted, the random one left alone, the cloud-init media not mentioned
    const lines = diskLines(first);
    expect(lines).toHaveLength(5);
    expect(lines).toEqual(expect.arrayContaining([
      expect.stringMatching(/^demo-disk: \/dev\/(vd[a-z]) has an ext2\/3\/4 filesystem, mounted on \/mnt\/\1$/),
      expect.stringMatching(/^demo-disk: \/dev\/vd[a-z] formatted ext2, mounted on \/mnt\/data1$/),
      expect.stringMatching(/^demo-disk: \/dev\/vd[a-z] holds no ext2\/3\/4 filesystem and is not blank, left alone$/),
      expect.stringMatching(/^demo-disk: \/dev\/vd[a-z] unmounted from \/mnt\/data1$/),
      expect.stringMatching(/^demo-disk: \/dev\/(vd[a-z]) unmounted from \/mnt\/\1$/),
    ]));

    guest = startDemoGuest({ image: demo, runDir: work, drives: [media], disks, scsiController: true });
    await guest.waitForSerial(/demo-disk: \/dev\/vd[a-z] has an ext2\/3\/4 filesystem, mounted on \/mnt\/data1\r?\n/, BOOT_BOUND_MS);
    await loginRoot(guest);
    guest.type('cat /mnt/data1/note.txt; echo "lines: $(wc -l < /data/note.txt)"\n');
    await guest.waitForSerial(/lines: 1\r?\n/, BOOT_BOUND_MS);
    expect(guest.serial()).toMatch(/\nkept 42\r?\nlines: 1/);
    expect(guest.serial()).not.toContain('formatted ext2');

    // a blank SCSI disk plugged in now is formatted and mounted on /mnt/<its serial>; unplugged, unmounted
    const hot = join(work, 'hot.raw');
    await sparseFile(hot, 32 * 1024 * 1024);
    const qmp = await guest.qmp();
    await qmp.execute('blockdev-add', { driver: 'raw', 'node-name': 'hot1', file: { driver: 'file', filename: hot } });
    await qmp.execute('device_add', { driver: 'scsi-hd', id: 'hotdisk', bus: 'scsi0.0', drive: 'hot1', serial: 'hot1' });
    await guest.waitForSerial(/demo-disk: \/dev\/sd[a-z] formatted ext2, mounted on \/mnt\/hot1\r?\n/, BOOT_BOUND_MS);
    await qmp.execute('device_del', { id: 'hotdisk' });
    await guest.waitForSerial(/demo-disk: \/dev\/sd[a-z] removed, unmounted \/mnt\/hot1\r?\n/, BOOT_BOUND_MS);
    qmp.close();
    guest.type('poweroff\n');
    expect(await guest.waitForExit(STOP_BOUND_MS)).toBe(0);
    process.stderr.write(`demo guest: boot, format, write, poweroff, boot, read back, poweroff in ${Date.now() - t0} ms\n`);
  }, TEST_TIMEOUT_MS);
});
