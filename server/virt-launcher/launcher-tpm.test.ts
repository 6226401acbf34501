import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, startTestLauncher, tinyVMI, waitFor, type TestLauncher } from './test-launcher';
import { SWTPM_SOCKET, SWTPM_STATE_DIR } from './converter/qemu-args-tpm';

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
});
