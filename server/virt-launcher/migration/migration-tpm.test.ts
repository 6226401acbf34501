import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestLauncher, tinyVMI, waitFor, type TestLauncher } from '../test-launcher';

/**
 * A persistent TPM is not here: its target swtpm cannot take the state dir the source's swtpm keeps
 * locked (swtpm 0.7.1), so LiveMigratable is False for it (server/virt-handler/live-migratable.ts).
 */
describe('live migration of a guest with a TPM or persistent EFI (two launchers on loopback, real swtpm)', () => {
  const launchers: TestLauncher[] = [];
  let volumes = '';
  afterEach(async () => {
    await Promise.all(launchers.splice(0).map((l) => l.stop()));
    if (volumes) rmSync(volumes, { recursive: true, force: true });
  });

  it.each([
    ['a TPM (state in the Pod, carried in the migration stream)', 'tpm'],
    ['persistent EFI variables on shared backend storage', 'efi'],
  ])('%s', async (_name, kind) => {
    volumes = mkdtempSync(join(tmpdir(), 'kv-backend-'));
    mkdirSync(join(volumes, 'vm-state'));
    const env = { KV_VOLUMES_DIR: volumes };
    const [source, target] = await Promise.all([startTestLauncher({ env }), startTestLauncher({ env })]);
    launchers.push(source, target);
    const vmi = kind === 'tpm'
      ? tinyVMI({ domain: { memory: { guest: '64Mi' }, devices: { autoattachPodInterface: false, tpm: {} } } }, '99999999-2222-3333-4444-777777777777')
      : tinyVMI({ domain: { memory: { guest: '128Mi' }, firmware: { bootloader: { efi: { secureBoot: false, persistent: true } } }, devices: { autoattachPodInterface: false } } }, '99999999-2222-3333-4444-888888888888');
    await source.client.request('sync', { vmi }, { timeoutMs: 20_000 });
    const { host, port } = await target.client.request('prepareIncoming', { vmi }, { timeoutMs: 20_000 });
    await source.client.request('migrate', { host, port, params: { downtimeMs: 300 } }, { timeoutMs: 30_000 });
    expect(await source.exited).toBe(0);
    expect(source.termination()?.reason).toBe('Migrated');
    await waitFor(async () => (await target.client.request('status')).state === 'running', 10_000, 'target running');
  });
});
