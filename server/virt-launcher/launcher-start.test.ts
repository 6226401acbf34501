import { afterEach, describe, expect, it } from 'vitest';
import { LauncherError } from './launcher-client';
import { LAUNCHER_ERRORS } from './protocol';
import { startTestLauncher, type TestLauncher } from './test-launcher';

// `kv launcher` listens before it loads the Launcher's code (main.ts): what comes in the meantime
// must be served as before, once the code is there.
describe('kv launcher right after launcher.ready', () => {
  let l: TestLauncher | undefined;
  afterEach(async () => { await l?.stop(); l = undefined; });

  it('answers the first request with the launcher\'s own reply (no domain yet), and again after', async () => {
    l = await startTestLauncher();
    const first = await l.client.request('status').then(() => undefined, (err: unknown) => err);
    expect(first).toBeInstanceOf(LauncherError);
    expect((first as LauncherError).reason).toBe(LAUNCHER_ERRORS.notStarted);
    await expect(l.client.request('status')).rejects.toMatchObject({ reason: LAUNCHER_ERRORS.notStarted });
  }, 30_000);

  it('exits 0 on SIGTERM before any sync, leaving termination.json Completed', async () => {
    l = await startTestLauncher();
    l.proc.kill('SIGTERM');
    expect(await l.exited).toBe(0);
    expect(l.termination()).toMatchObject({ reason: 'Completed', exitCode: 0 });
  }, 30_000);
});
