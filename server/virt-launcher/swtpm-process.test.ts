import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSwtpm, swtpmArgs } from './swtpm-process';

describe('swtpm process', () => {
  let dir = '';
  afterEach(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

  it('runs swtpm as a TPM 2.0 on a unix control socket, state in the plan\'s dir, ending with its QEMU', () => {
    expect(swtpmArgs({ socket: '/p/swtpm.sock', stateDir: '/claim/swtpm', persistent: true }, '/p')).toEqual([
      'socket', '--tpm2', '--tpmstate', 'dir=/claim/swtpm,mode=0600', '--ctrl', 'type=unixio,path=/p/swtpm.sock,mode=0600',
      '--log', 'file=/p/swtpm.log,level=1', '--terminate',
    ]);
  });

  it('a swtpm that dies at start is a clear error with its exit, not a hang', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kv-swtpm-'));
    const plan = { socket: join(dir, 'swtpm.sock'), stateDir: join(dir, 'state'), persistent: false };
    await expect(startSwtpm(plan, dir, 'false')).rejects.toThrow(/^TPM emulator failed to start: swtpm exited \(code 1\)/);
  });

  it('starts the real swtpm and stops it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kv-swtpm-'));
    const p = await startSwtpm({ socket: join(dir, 'swtpm.sock'), stateDir: join(dir, 'state'), persistent: false }, dir);
    const exited = new Promise((r) => p.proc.once('exit', r));
    p.stop();
    await exited;
    expect(p.proc.signalCode).toBe('SIGKILL');
  });
});
