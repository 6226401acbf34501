/**
 * Boots the demo image under QEMU (TCG) for tests: serial console on stdio, QMP on a socket,
 * VGA present for screendumps. QEMU runs under `setpriv --pdeathsig KILL`, so it dies with the
 * test process, and `stop()` kills it if it is still running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { openQmpSession, type QmpSession } from './qmp-session';
import { waitFor } from './wait-for';
import type { ImageEntry } from '../image-entry';

export interface DemoGuestOptions {
  image: ImageEntry;
  runDir: string;
  /** Extra drives, e.g. cloud-init media: attached as read-only raw virtio disks. */
  drives?: string[];
  /** Writable virtio disks (after `drives`; raw unless told), with an optional serial as KubeVirt sets one. */
  disks?: { file: string; format?: 'raw' | 'qcow2'; serial?: string }[];
  /** Adds a virtio-scsi controller `scsi0` (its bus `scsi0.0` takes hot-plugged `scsi-hd` disks). */
  scsiController?: boolean;
  appendExtra?: string;
  machine?: 'q35' | 'pc';
}

export interface DemoGuest {
  /** Everything the guest printed on its serial console so far. */
  serial(): string;
  /** Resolves with the elapsed ms since start once the serial output matches. */
  waitForSerial(pattern: RegExp, timeoutMs: number): Promise<number>;
  type(text: string): void;
  qmp(): Promise<QmpSession>;
  /** Resolves with QEMU's exit code, or rejects after the bound. */
  waitForExit(timeoutMs: number): Promise<number | null>;
  stop(): Promise<void>;
  startedAt: number;
}

export function startDemoGuest(opts: DemoGuestOptions): DemoGuest {
  const qmpPath = join(opts.runDir, 'qmp.sock');
  const drives = (opts.drives ?? []).flatMap((f) => ['-drive', `file=${f},format=raw,if=virtio,readonly=on`]);
  const disks = (opts.disks ?? []).flatMap((d, i) => [
    '-drive', `file=${d.file},format=${d.format ?? 'raw'},if=none,id=disk${i}`,
    '-device', `virtio-blk-pci,drive=disk${i}${d.serial ? `,serial=${d.serial}` : ''}`,
  ]);
  const args = [
    '--pdeathsig', 'KILL', '--', 'qemu-system-x86_64',
    '-accel', 'tcg', '-machine', opts.machine ?? 'q35', '-m', '256', '-nodefaults', '-no-user-config',
    '-vga', 'std', '-display', 'none', '-serial', 'stdio', '-qmp', `unix:${qmpPath},server=on,wait=off`,
    '-kernel', opts.image.kernel!, '-initrd', opts.image.initrd!,
    '-append', [opts.image.cmdline, opts.appendExtra].filter(Boolean).join(' '),
    '-netdev', 'user,id=net0', '-device', 'virtio-net-pci,netdev=net0',
    ...drives,
    ...disks,
    ...(opts.scsiController ? ['-device', 'virtio-scsi-pci,id=scsi0'] : []),
  ];
  const startedAt = Date.now();
  const proc: ChildProcess = spawn('setpriv', args, { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let exitCode: number | null | undefined;
  proc.stdout!.on('data', (d: Buffer) => { out += d.toString('latin1'); });
  proc.stderr!.on('data', (d: Buffer) => { out += d.toString('latin1'); });
  proc.on('exit', (code) => { exitCode = code; });

  return {
    startedAt,
    serial: () => out,
    async waitForSerial(pattern, timeoutMs) {
      await waitFor(() => pattern.test(out) || exitCode !== undefined, { timeoutMs, what: `serial ${pattern}` }).catch((err: Error) => {
        throw new Error(`${err.message}; serial ends with:\n${out.slice(-1500)}`);
      });
      if (!pattern.test(out)) throw new Error(`QEMU exited (${exitCode}) before serial matched ${pattern}:\n${out}`);
      return Date.now() - startedAt;
    },
    type: (text) => { proc.stdin!.write(text); },
    qmp: () => openQmpSession(qmpPath),
    async waitForExit(timeoutMs) {
      await waitFor(() => exitCode !== undefined, { timeoutMs, what: 'QEMU to exit' });
      return exitCode ?? null;
    },
    async stop() {
      if (exitCode !== undefined) return;
      proc.kill('SIGKILL');
      await waitFor(() => exitCode !== undefined, { timeoutMs: 5_000, what: 'QEMU to die' });
    },
  };
}
