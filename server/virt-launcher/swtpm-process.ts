/**
 * The TPM emulator behind devices.tpm: `setpriv --pdeathsig KILL -- swtpm socket --tpm2 ...`, started
 * before QEMU (whose `emulator` TPM backend connects to its control socket). It cannot outlive its
 * launcher (pdeathsig, as QEMU) nor its QEMU (`--terminate`: it exits when QEMU's connection goes);
 * the launcher also stops it when the domain exits. Its log is `<pod dir>/swtpm.log`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { TPMPlan } from './converter/qemu-args-tpm';
import { withHiddenPaths, type Reveal } from './qemu-secrets';

export const SWTPM_LOG_FILE = 'swtpm.log';
const SWTPM = 'swtpm';
const SETPRIV = 'setpriv';
const READY_TIMEOUT_MS = 10_000;
const POLL_MS = 20;

export interface SwtpmProcess { proc: ChildProcess; stop(): void }

/** swtpm's argument list for a plan (pure; the unit test reads it). */
export function swtpmArgs(plan: TPMPlan, podDir: string): string[] {
  return [
    'socket', '--tpm2',
    '--tpmstate', `dir=${plan.stateDir},mode=0600`,
    '--ctrl', `type=unixio,path=${plan.socket},mode=0600`,
    '--log', `file=${join(podDir, SWTPM_LOG_FILE)},level=1`,
    '--terminate',
  ];
}

/**
 * Starts swtpm and resolves once its control socket is there; rejects with its exit if it dies first.
 * `as`: the user it runs as, QEMU's (setpriv options, and the data dir's reveal: qemu-user.ts).
 */
export async function startSwtpm(plan: TPMPlan, podDir: string, binary = SWTPM, as: { userArgs?: string[]; reveal?: Reveal } = {}): Promise<SwtpmProcess> {
  await mkdir(plan.stateDir, { recursive: true, mode: 0o700 });
  await rm(plan.socket, { force: true });
  const [file, ...argv] = withHiddenPaths([], [SETPRIV, '--pdeathsig', 'KILL', ...(as.userArgs ?? []), '--', binary, ...swtpmArgs(plan, podDir)], [], as.reveal);
  const proc = spawn(file, argv, { cwd: podDir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr!.on('data', (c: Buffer) => { stderr = (stderr + c.toString('utf8')).slice(-1024); });
  let exited: string | undefined;
  proc.once('error', (err) => { exited = err.message; });
  proc.once('exit', (code, signal) => { exited ??= `swtpm exited (${signal ?? `code ${code}`})${stderr.trim() ? `: ${stderr.trim()}` : ''}`; });
  const stop = () => { if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL'); };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (exited) throw new Error(`TPM emulator failed to start: ${exited}`);
    if (await stat(plan.socket).then(() => true, () => false)) return { proc, stop };
    if (Date.now() > deadline) { stop(); throw new Error(`TPM emulator failed to start: no socket ${plan.socket} after ${READY_TIMEOUT_MS} ms`); }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
