/** Test support: start a throwaway QEMU with a QMP socket, and always kill it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestQemu { dir: string; qmpPath: string; proc: ChildProcess; stop: () => Promise<void> }

/** `-machine none` QEMU (≈100 ms to start); extra args appended. */
export function startTestQemu(extra: string[] = []): TestQemu {
  const dir = mkdtempSync(join(tmpdir(), 'kv-qmp-'));
  const qmpPath = join(dir, 'qmp.sock');
  const proc = spawn('qemu-system-x86_64', [
    '-machine', 'none', '-accel', 'tcg', '-nodefaults', '-no-user-config', '-display', 'none',
    '-qmp', `unix:${qmpPath},server=on,wait=off`, ...extra,
  ], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  return { dir, qmpPath, proc, stop };
}
