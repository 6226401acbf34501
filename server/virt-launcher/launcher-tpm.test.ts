import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, startTestLauncher, tinyVMI, waitFor, type TestLauncher } from './test-launcher';
import { SWTPM_SOCKET, SWTPM_STATE_DIR } from './converter/qemu-args-tpm';
import { readTpmClock } from './test-swtpm-clock';
import type { LauncherVMI } from './vmi-types';
import { BACKEND_EFI_VARS, BACKEND_STORAGE_VOLUME, BACKEND_TPM_DIR } from '../../lib/kubevirt/backend-storage';

const OVMF_VARS_TEMPLATE = '/usr/share/OVMF/OVMF_VARS_4M.fd';
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** the swtpm serving this pod dir's socket, from /proc */
function swtpmPid(podDir: string): number | undefined {
  const sock = join(podDir, SWTPM_SOCKET);
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const argv = readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
      if (argv[0]?.endsWith('swtpm') && argv.some((a) => a.includes(sock))) return Number(p);
    } catch { /* gone */ }
  }
  return undefined;
}

describe('kv launcher with devices.tpm (real swtpm, real QEMU)', () => {
  let l: TestLauncher | undefined;
  afterEach(async () => { await l?.stop(); l = undefined; });

  it('starts swtpm before QEMU, the firmware initialises the TPM (state written), and swtpm dies with a killed launcher', async () => {
    l = await startTestLauncher();
    const st = await l.client.request('sync', { vmi: tinyVMI({ domain: { memory: { guest: '64Mi' }, devices: { autoattachPodInterface: false, tpm: {} } } }) }, { timeoutMs: 20_000 });
    expect(st.state).toBe('running');
    const pid = swtpmPid(l.podDir);
    expect(pid).toBeDefined();
    expect(readFileSync(`/proc/${st.qemuPid}/cmdline`, 'utf8')).toContain('tpm-crb');
    // SeaBIOS finds the TPM and sends TPM2_Startup: swtpm writes its permanent state
    await waitFor(() => existsSync(join(l!.podDir, SWTPM_STATE_DIR, 'tpm2-00.permall')), 15_000, 'swtpm state written');
    l.proc.kill('SIGKILL');
    await l.exited;
    await waitFor(() => !isAlive(pid) && !isAlive(st.qemuPid), 5000, 'swtpm and QEMU to die with their launcher');
  });

  describe('persistent state in the backend storage claim (the kubelet links it into the Pod as vm-state)', () => {
    let volumes: string;
    afterEach(() => rmSync(volumes, { recursive: true, force: true }));

    /** one boot of the same VM (a new launcher and pod dir each time, as after a stop/start) */
    async function boot(vmi: LauncherVMI, untilWritten: () => boolean): Promise<void> {
      l = await startTestLauncher({ env: { KV_VOLUMES_DIR: volumes } });
      const st = await l.client.request('sync', { vmi }, { timeoutMs: 30_000 });
      expect(st.state).toBe('running');
      await waitFor(untilWritten, 60_000, 'the firmware to write its state');
      const pid = swtpmPid(l.podDir);
      await l.client.request('kill');
      await l.exited;
      await waitFor(() => !isAlive(pid), 5000, 'swtpm to stop with its QEMU');
      await l.stop();
      l = undefined;
    }

    it('a persistent TPM keeps its non-volatile state across a stop/start (the TPM reset count goes on)', async () => {
      volumes = mkdtempSync(join(tmpdir(), 'kv-backend-'));
      const stateDir = join(volumes, BACKEND_STORAGE_VOLUME, BACKEND_TPM_DIR);
      mkdirSync(join(volumes, BACKEND_STORAGE_VOLUME));
      const vmi = tinyVMI({ domain: { memory: { guest: '64Mi' }, devices: { autoattachPodInterface: false, tpm: { persistent: true } } } });
      const permall = join(stateDir, 'tpm2-00.permall');
      await boot(vmi, () => existsSync(permall));
      const first = await readTpmClock(stateDir);
      const afterFirst = sha(permall);
      await boot(vmi, () => sha(permall) !== afterFirst);
      const second = await readTpmClock(stateDir);
      // a fresh TPM would count from the start again (second.resetCount === first.resetCount)
      expect(second.resetCount).toBeGreaterThan(first.resetCount);
    });

    it('persistent EFI variables: the VARS file is copied once into the claim; what OVMF wrote in one boot is what the next boot starts from', async () => {
      volumes = mkdtempSync(join(tmpdir(), 'kv-backend-'));
      mkdirSync(join(volumes, BACKEND_STORAGE_VOLUME));
      const vars = join(volumes, BACKEND_STORAGE_VOLUME, BACKEND_EFI_VARS);
      const template = sha(OVMF_VARS_TEMPLATE);
      const vmi = tinyVMI({ domain: { memory: { guest: '128Mi' }, firmware: { bootloader: { efi: { secureBoot: false, persistent: true } } }, devices: { autoattachPodInterface: false } } });
      // first boot: OVMF records its boot options and the like in the variable store
      await boot(vmi, () => existsSync(vars) && sha(vars) !== template);
      const afterFirst = sha(vars);
      expect(afterFirst).not.toBe(template);
      // second boot: QEMU opens the same file, not a fresh copy of the template
      l = await startTestLauncher({ env: { KV_VOLUMES_DIR: volumes } });
      const st = await l.client.request('sync', { vmi }, { timeoutMs: 30_000 });
      expect(readFileSync(`/proc/${st.qemuPid}/cmdline`, 'utf8')).toContain(vars);
      expect(sha(vars)).not.toBe(template);
    });
  });
});
