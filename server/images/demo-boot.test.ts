/**
 * The demo guest under real QEMU (TCG, q35, 256 MiB): boots to a login prompt on serial and
 * VGA, applies cloud-init (NoCloud and ConfigDrive), logs in as root, runs `counter`, and stops
 * on ACPI power-down and on `poweroff`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeConfigDriveMedia, makeNoCloudMedia } from './cloud-init-media';
import { buildDemoImage } from './demo-build';
import { importDemoImage, resolveImage, type ImageEntry } from './image-store';
import { startDemoGuest, type DemoGuest } from './testing/demo-guest';
import { countChangedPixels, measureScreen } from './testing/ppm';
import { waitForAsync } from './testing/wait-for';

const BOOT_BOUND_MS = 30_000;
const STOP_BOUND_MS = 15_000;
const BOOT_TEST_TIMEOUT_MS = 90_000;

let work: string;
let demo: ImageEntry;
let guest: DemoGuest | undefined;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'kv-demo-boot-'));
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

describe('demo guest', () => {
  it('boots with NoCloud media to a login prompt on serial and VGA, runs user-data, powers down on ACPI', async () => {
    const media = join(work, 'nocloud.iso');
    await makeNoCloudMedia({
      outFile: media,
      metaData: 'instance-id: 1234\nlocal-hostname: vm-nocloud\n',
      userData: '#!/bin/sh\necho "user-data ran: $((6 * 7)) on $(hostname)"\n',
    });
    guest = startDemoGuest({ image: demo, runDir: work, drives: [media] });

    const bootMs = await guest.waitForSerial(/vm-nocloud login:/, BOOT_BOUND_MS);
    process.stderr.write(`demo guest (TCG, q35, 256 MiB): QEMU start to "login:" on ttyS0 in ${bootMs} ms\n`);
    await guest.waitForSerial(/user-data ran: 42 on vm-nocloud/, BOOT_BOUND_MS);

    const qmp = await guest.qmp();
    const before = join(work, 'screen-before.ppm');
    await qmp.execute('screendump', { filename: before });
    const screen = measureScreen(before);
    expect(screen.colours).toBeGreaterThan(1);
    expect(screen.litFraction).toBeGreaterThan(0.002);
    // The VGA console is live: typing "root" at tty1's login prompt changes the screen.
    await qmp.execute('send-key', { keys: ['r', 'o', 'o', 't', 'ret'].map((k) => ({ type: 'qcode', data: k })) });
    const after = join(work, 'screen-after.ppm');
    await waitForAsync(async () => {
      await qmp.execute('screendump', { filename: after });
      return countChangedPixels(before, after) > 200;
    }, { timeoutMs: BOOT_BOUND_MS, what: 'the VGA console to echo typed keys' });

    await qmp.execute('system_powerdown');
    expect(await guest.waitForExit(STOP_BOUND_MS)).toBe(0);
    expect(guest.serial()).toContain('demo: shutting down');
    qmp.close();
  }, BOOT_TEST_TIMEOUT_MS);

  it('takes its hostname from ConfigDrive, lets root log in, runs counter, and stops on poweroff', async () => {
    const media = join(work, 'configdrive.iso');
    await makeConfigDriveMedia({
      outFile: media,
      metaData: JSON.stringify({ uuid: '5678', hostname: 'vm-configdrive', instance_id: 'vm-configdrive.default' }),
    });
    guest = startDemoGuest({ image: demo, runDir: work, drives: [media] });

    await guest.waitForSerial(/vm-configdrive login:/, BOOT_BOUND_MS);
    guest.type('root\n');
    await guest.waitForSerial(/root@vm-configdrive:~# /, BOOT_BOUND_MS);
    guest.type('counter -b\n');
    await guest.waitForSerial(/counter 5\r?\n/, BOOT_BOUND_MS);
    const counts = [...guest.serial().matchAll(/counter (\d+)/g)].map((m) => Number(m[1]));
    expect(counts.slice(0, 5)).toEqual([1, 2, 3, 4, 5]);

    guest.type('poweroff\n');
    expect(await guest.waitForExit(STOP_BOUND_MS)).toBe(0);
  }, BOOT_TEST_TIMEOUT_MS);
});
