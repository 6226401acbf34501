/**
 * Spawns QEMU as `setpriv --pdeathsig KILL -- qemu-system-x86_64 ...` (argument array, no
 * shell) so it dies with its launcher; stderr goes to `<pod dir>/qemu.log` and its tail is kept
 * for error messages.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { withHiddenPaths, type Reveal } from './qemu-secrets';
import type { HugetlbfsMount } from './hugetlbfs';
import type { NetDeviceNodes } from './qemu-net-devices';

export const QEMU_LOG_FILE = 'qemu.log';
const SETPRIV = 'setpriv';
const STDERR_TAIL_BYTES = 2048;

export interface QemuExit { code: number | null; signal: NodeJS.Signals | null; stderrTail: string }

export interface QemuProcess { proc: ChildProcess; pid: number; exited: Promise<QemuExit> }

/**
 * `hidePaths`: covered in QEMU's own mount namespace (qemu-secrets.ts), which also mounts `hugetlbfs`
 * and makes the `reveal` and the `netNodes`; none by default. `userArgs`: setpriv's options for the user QEMU runs as
 * (qemu-user.ts; setpriv sets the pdeathsig after switching, so it holds).
 */
export function spawnQemu(opts: { binary: string; args: string[]; podDir: string; hidePaths?: string[]; hugetlbfs?: HugetlbfsMount[]; userArgs?: string[]; reveal?: Reveal; netNodes?: NetDeviceNodes }): QemuProcess {
  const logStream = createWriteStream(join(opts.podDir, QEMU_LOG_FILE), { flags: 'a' });
  const [file, ...argv] = withHiddenPaths(opts.hidePaths ?? [], [SETPRIV, '--pdeathsig', 'KILL', ...(opts.userArgs ?? []), '--', opts.binary, ...opts.args], opts.hugetlbfs, opts.reveal, opts.netNodes);
  const proc = spawn(file, argv, {
    cwd: opts.podDir, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer) => {
    logStream.write(chunk);
    tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  const exited = new Promise<QemuExit>((resolve) => {
    proc.once('error', (err) => { tail += `\n${err.message}`; });
    proc.once('close', (code, signal) => {
      logStream.end();
      resolve({ code, signal, stderrTail: tail.trim() });
    });
  });
  return { proc, pid: proc.pid ?? -1, exited };
}

/** A one-line message for an exit: the last QEMU error line, or the code/signal. */
export function describeExit(e: QemuExit): string {
  const how = e.signal ? `killed by ${e.signal}` : `exited with code ${e.code}`;
  const lastLine = e.stderrTail.split('\n').filter((l) => l.trim()).pop();
  return lastLine ? `QEMU ${how}: ${lastLine}` : `QEMU ${how}`;
}
