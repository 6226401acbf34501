import { readdirSync, readlinkSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { DomainStatus, MigrationInfo } from '../protocol';
import { isAlive, startTestLauncher, tinyVMI, uidsOf, waitFor, type TestLauncher } from '../test-launcher';
import { POSTCOPY_FAILED_MESSAGE } from './domain-migration';

/** after one side dies post-copy, the other launcher must have ended within this */
const END_BOUND_MS = 10_000;
/**
 * Slow enough that neither pre-copy nor post-copy can finish while the test acts (the cap holds for
 * both phases). The switch is asked for as virt-handler asks once the completion timeout passed.
 */
const PARAMS = { allowPostCopy: true, bandwidthBytesPerSec: 32 << 10, downtimeMs: 1 };

/** QEMU opens a userfaultfd when post-copy starts on the incoming side */
function hasUserfaultfd(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try { return readlinkSync(`/proc/${pid}/fd/${fd}`).includes('userfaultfd'); } catch { return false; }
    });
  } catch {
    return false;
  }
}

describe('post-copy migration where one side dies after the switch', () => {
  const launchers: TestLauncher[] = [];
  afterEach(async () => { await Promise.all(launchers.splice(0).map((l) => l.stop())); });

  async function inPostcopy(vmiUID: string) {
    const [source, target] = await Promise.all([startTestLauncher(), startTestLauncher()]);
    launchers.push(source, target);
    const vmi = tinyVMI({}, vmiUID);
    const src = await source.client.request('sync', { vmi }, { timeoutMs: 20_000 });
    const { host, port } = await target.client.request('prepareIncoming', { vmi, allowPostCopy: true }, { timeoutMs: 20_000 });
    const tgt = await target.client.request('status');
    // post-copy needs userfaultfd, root-only here: the target keeps root and says why; the source dropped it
    expect(tgt.qemuUser).toMatchObject({ uid: 0, reason: 'PostCopyNeedsUserfaultfd', message: expect.stringContaining('userfaultfd') });
    expect(uidsOf(tgt.qemuPid)).toEqual([0, 0, 0, 0]);
    expect(src.qemuUser).toEqual({ uid: 107 });
    expect(uidsOf(src.qemuPid)).toEqual([107, 107, 107, 107]);
    const infos: MigrationInfo[] = [];
    const domains: DomainStatus[] = [];
    source.client.on('migration', (i) => infos.push(i));
    source.client.on('domain', (s) => domains.push(s));
    await source.client.request('migrate', { host, port, params: PARAMS });
    await source.client.request('migrateStartPostcopy');
    await waitFor(() => infos.some((i) => i.status === 'postcopy-active'), 20_000, 'the switch to post-copy');
    // the source switches first; the target only once the switch reached it (it then opens its userfaultfd).
    // Killing the source in between leaves a target that never left pre-copy (CI saw one end Crashed, not PostcopyFailed).
    await waitFor(() => hasUserfaultfd(tgt.qemuPid!), 20_000, 'the target in post-copy');
    return { source, target, srcPid: src.qemuPid!, tgtPid: tgt.qemuPid!, infos, domains };
  }

  it('target QEMU killed: the source reports the migration failed, stops its QEMU and ends PostcopyFailed', async () => {
    const { source, target, srcPid, tgtPid, infos, domains } = await inPostcopy('99999999-2222-3333-4444-777777777777');
    expect(infos.some((i) => i.status === 'completed')).toBe(false); // the cap keeps it going
    // the guest already runs on the target: a cancel now would lose it, so it is refused
    await expect(source.client.request('migrateCancel')).rejects.toThrow(/post-copy mode and cannot be cancelled/);
    const killedAt = Date.now();
    process.kill(tgtPid, 'SIGKILL');

    const failed = await waitFor(() => infos.find((i) => i.status === 'failed'), END_BOUND_MS, 'migration failed on the source');
    expect(failed.errorDesc).toContain(POSTCOPY_FAILED_MESSAGE);
    expect(await source.exited).not.toBe(0);
    const endMs = Date.now() - killedAt;
    expect(endMs).toBeLessThan(END_BOUND_MS);
    expect(isAlive(srcPid)).toBe(false);
    expect(domains.at(-1)).toMatchObject({ state: 'crashed', reason: 'PostcopyFailed', message: POSTCOPY_FAILED_MESSAGE });
    expect(source.termination()).toMatchObject({ reason: 'PostcopyFailed', message: POSTCOPY_FAILED_MESSAGE });
    await target.exited; // the target launcher ends with its QEMU
    process.stderr.write(`post-copy, target killed: source ended ${endMs} ms later\n`);
  });

  it('source QEMU killed: the target stops its incomplete guest and ends PostcopyFailed, never running', async () => {
    const { source, target, srcPid, tgtPid } = await inPostcopy('99999999-2222-3333-4444-888888888888');
    const killedAt = Date.now();
    process.kill(srcPid, 'SIGKILL');

    expect(await target.exited).not.toBe(0);
    const endMs = Date.now() - killedAt;
    expect(endMs).toBeLessThan(END_BOUND_MS);
    expect(isAlive(tgtPid)).toBe(false);
    expect(target.termination()).toMatchObject({ reason: 'PostcopyFailed', message: POSTCOPY_FAILED_MESSAGE });
    await source.exited;
    process.stderr.write(`post-copy, source killed: target ended ${endMs} ms later\n`);
  });
});
