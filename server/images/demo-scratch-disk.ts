/**
 * The demo image's containerDisk: 64 MiB of ext2 labelled `demo-scratch`. The guest mounts it
 * like any disk (on /mnt/vda) but does not point /data at it: VMs write to a fresh overlay of
 * it, so what is written there is gone after a restart.
 */
import { execFile } from 'node:child_process';
import { open, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { convertToQcow2 } from './qemu-img';

const run = promisify(execFile);

export const DEMO_SCRATCH_LABEL = 'demo-scratch';
export const DEMO_SCRATCH_BYTES = 64 * 1024 * 1024;
/** busybox-static's, which the demo build needs anyway (its mke2fs makes plain ext2). */
const BUSYBOX = '/bin/busybox';

export async function createDemoScratchDisk(qcow2File: string): Promise<void> {
  const raw = `${qcow2File}.raw`;
  try {
    const fh = await open(raw, 'w');
    await fh.truncate(DEMO_SCRATCH_BYTES);
    await fh.close();
    await run(BUSYBOX, ['mke2fs', '-q', '-F', '-m', '0', '-L', DEMO_SCRATCH_LABEL, raw]);
    await convertToQcow2(raw, qcow2File);
  } finally {
    await rm(raw, { force: true });
  }
}
