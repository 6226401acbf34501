/** QEMU under the converter's seccomp sandbox still boots a guest (TCG): the demo guest reaches its login prompt. */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX } from './converter/qemu-args';
import { spawnQemu, type QemuProcess } from './qemu-process';
import { QmpClient } from './qmp-client';
import { canHidePaths, secretPaths } from './qemu-secrets';
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

  it.runIf(canHidePaths())('cannot read the cluster secrets (tokens, CA key, kubeconfigs, handler tokens) while its pod dir works', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kv-secrets-'));
    const secrets = {
      tokens: join(dir, 'apiserver', 'tokens.json'),
      caKey: join(dir, 'apiserver', 'pki', 'ca.key'),
      kubeconfig: join(dir, 'kubeconfig'),
      handler: join(dir, 'nodes', 'n1', 'handler.token'),
    };
    for (const f of Object.values(secrets)) {
      mkdirSync(join(f, '..'), { recursive: true });
      writeFileSync(f, 'secret', { mode: 0o600 });
    }
    const podDir = join(dir, 'nodes', 'n1', 'pods', 'uid-1');
    mkdirSync(podDir, { recursive: true });
    const qmpPath = join(podDir, 'qmp.sock');
    const args = ['-sandbox', SANDBOX, '-machine', 'q35', '-accel', 'tcg', '-m', '64', '-nodefaults', '-display', 'none', '-S', '-qmp', `unix:${qmpPath},server=on,wait=off`];
    qemu = spawnQemu({ binary: 'qemu-system-x86_64', args, podDir, hidePaths: secretPaths(dir) });
    const qmp = await QmpClient.connect(qmpPath, { timeoutMs: 10_000 }); // the socket QEMU made in its namespace is the launcher's too
    await expect(qmp.execute('query-status')).resolves.toMatchObject({ status: 'prelaunch' });
    qmp.close();
    // /proc/<pid>/root resolves paths in QEMU's own mount namespace: what QEMU would see
    const seen = (f: string) => {
      try {
        return readFileSync(`/proc/${qemu!.pid}/root${f}`, 'utf8');
      } catch (err) {
        return (err as NodeJS.ErrnoException).code;
      }
    };
    expect(seen(secrets.tokens)).toBe('ENOENT');
    expect(seen(secrets.caKey)).toBe('ENOENT');
    expect(seen(secrets.kubeconfig)).toBe('');
    expect(seen(secrets.handler)).toBe('');
    expect(readFileSync(secrets.tokens, 'utf8')).toBe('secret'); // everyone else still has them
    expect(readFileSync(`/proc/${qemu.pid}/status`, 'utf8')).toMatch(/^Name:\tqemu-system-x86/m);
  });
});
