/** QEMU under the converter's seccomp sandbox still boots a guest (TCG): the demo guest reaches its login prompt. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX } from './converter/qemu-args';
import { spawnQemu, type QemuProcess } from './qemu-process';
import { waitFor } from './test-launcher';

const demo = process.env.KV_DEMO_IMAGE_DIR ?? join(homedir(), '.cache', 'kubevirt-ts', 'demo');
const hasDemo = existsSync(join(demo, 'vmlinuz')) && existsSync(join(demo, 'initrd.gz'));

describe.runIf(hasDemo)('QEMU with -sandbox (seccomp)', () => {
  let dir: string;
  let qemu: QemuProcess | undefined;
  afterEach(() => {
    qemu?.proc.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs with a seccomp filter installed and the guest boots to its login prompt', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kv-sandbox-'));
    const serial = join(dir, 'serial.txt');
    const cmdline = readFileSync(join(demo, 'cmdline'), 'utf8').trim();
    const args = [
      '-sandbox', SANDBOX, '-machine', 'q35', '-accel', 'tcg', '-m', '256', '-nodefaults', '-display', 'none',
      '-kernel', join(demo, 'vmlinuz'), '-initrd', join(demo, 'initrd.gz'), '-append', cmdline, '-serial', `file:${serial}`,
    ];
    qemu = spawnQemu({ binary: 'qemu-system-x86_64', args, podDir: dir });
    // setpriv execs QEMU in place: the pid is QEMU's once the exec happened
    // the filter is installed while QEMU parses its options; 2 = filter mode
    const status = await waitFor(() => {
      const s = readFileSync(`/proc/${qemu!.pid}/status`, 'utf8');
      return s.includes('Name:\tqemu-system-x86') && /^Seccomp:\s+2$/m.test(s) ? s : undefined;
    }, 5000, 'QEMU under a seccomp filter');
    expect(status).toMatch(/^Seccomp_filters:\s+[1-9]/m);
    await waitFor(() => existsSync(serial) && readFileSync(serial, 'utf8').includes('login:'), 60_000, 'login prompt on the serial console');
    expect(qemu.proc.exitCode).toBeNull(); // nothing the guest boot does trips the filter
  }, 70_000);
});
