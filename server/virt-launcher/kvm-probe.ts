/**
 * Is KVM usable here? /dev/kvm existing is not enough (on some hosts guests hang once they
 * enter long mode), so this boots a 64 KiB firmware under `-accel kvm` that goes from real
 * mode to 64-bit long mode with paging and writes to isa-debug-exit; KVM counts only if QEMU
 * exits with that code within the time box. Cached per node; `KV_ACCEL=tcg|kvm` overrides.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { log } from '../log';

export type Accel = 'kvm' | 'tcg';
/** `kvm` mirrors `accel` for readers of kvm-probe.json (server/node/kvm-probe-result.ts). */
export interface ProbeResult { accel: Accel; kvm: boolean; reason: string; durationMs: number; probedAt: string }

const logger = log.child({ component: 'kvm-probe' });
export const KVM_DEVICE = '/dev/kvm';
export const PROBE_FILE = 'kvm-probe.json';
const DEFAULT_TIMEOUT_MS = 1500;
const ROM_SIZE = 0x10000;
/** isa-debug-exit: QEMU exits with (value << 1) | 1; the firmware writes 0x31. */
const PROBE_EXIT_CODE = 99;
/**
 * Assembled (GNU as, .code16/.code64) from: cli; identity-map the first 2 MiB with one PML4,
 * PDPT and 2 MiB PD entry at 0x1000-0x3000; CR3=0x1000; CR4.PAE; EFER.LME (rdmsr/wrmsr
 * 0xC0000080); lgdt (null + 64-bit code descriptor); CR0 |= PE|PG; far jmp 0x08:long_mode;
 * long_mode: mov al,0x31; out 0xf4,al; hlt. Placed at ROM offset 0 (linear 0xF0000).
 */
const PROBE_CODE_HEX =
  'fa31c08ed866c70600100320000066c70600200330000066c70600308300000066b8001000000f22d80f20e06683c820' +
  '0f22e066b9800000c00f32660d000100000f30b800f08ed80f011678000f20c0660d010000800f22c066ea61000f0008' +
  '00b031e6f4f4ebfd000000000000000000000000009a20000f0068000f000000';
/** At the reset vector 0xFFFFFFF0 (ROM offset 0xFFF0): jmp far 0xF000:0x0000. */
const RESET_VECTOR_HEX = 'ea000000f0';

export function buildProbeRom(): Buffer {
  const rom = Buffer.alloc(ROM_SIZE);
  Buffer.from(PROBE_CODE_HEX, 'hex').copy(rom, 0);
  Buffer.from(RESET_VECTOR_HEX, 'hex').copy(rom, ROM_SIZE - 16);
  return rom;
}

/** Boots the probe firmware with `accel`; resolves true when it reached long mode in time. */
export async function runProbeGuest(accel: Accel, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<boolean> {
  const dir = await mkdtemp(join(tmpdir(), 'kv-kvm-probe-'));
  try {
    const rom = join(dir, 'probe.rom');
    await writeFile(rom, buildProbeRom());
    const proc = spawn('qemu-system-x86_64', [
      '-accel', accel, '-machine', 'pc', '-nodefaults', '-no-user-config', '-display', 'none', '-m', '16',
      '-bios', rom, '-device', 'isa-debug-exit,iobase=0xf4,iosize=0x04',
    ], { stdio: 'ignore' });
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    const code = await new Promise<number | null>((resolve) => {
      proc.once('error', () => resolve(null));
      proc.once('exit', (c) => resolve(c));
    });
    clearTimeout(timer);
    return code === PROBE_EXIT_CODE;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function probe(timeoutMs: number): Promise<Omit<ProbeResult, 'probedAt'>> {
  const started = Date.now();
  const done = (accel: Accel, reason: string) => ({ accel, kvm: accel === 'kvm', reason, durationMs: Date.now() - started });
  try {
    await access(KVM_DEVICE, constants.R_OK | constants.W_OK);
  } catch {
    return done('tcg', `${KVM_DEVICE} is not accessible`);
  }
  if (await runProbeGuest('kvm', timeoutMs)) return done('kvm', 'a KVM guest reached long mode');
  return done('tcg', `a KVM guest did not reach long mode within ${timeoutMs} ms`);
}

/** KV_ACCEL override, else the cached result in `cacheDir/kvm-probe.json`, else a fresh probe (then cached). */
export async function detectAccel(opts: { cacheDir?: string; timeoutMs?: number; env?: Record<string, string | undefined> } = {}): Promise<ProbeResult> {
  const forced = (opts.env ?? process.env).KV_ACCEL;
  if (forced === 'kvm' || forced === 'tcg') return { accel: forced, kvm: forced === 'kvm', reason: 'KV_ACCEL', durationMs: 0, probedAt: new Date().toISOString() };
  const cacheFile = opts.cacheDir ? join(opts.cacheDir, PROBE_FILE) : undefined;
  if (cacheFile) {
    const cached = await readFile(cacheFile, 'utf8').then((t) => JSON.parse(t) as ProbeResult, () => undefined);
    if (cached?.accel === 'kvm' || cached?.accel === 'tcg') return cached;
  }
  const result = { ...(await probe(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS)), probedAt: new Date().toISOString() };
  logger.info(result, 'accelerator probed');
  if (cacheFile) {
    await mkdir(dirname(cacheFile), { recursive: true });
    await writeFile(cacheFile, `${JSON.stringify(result)}\n`);
  }
  return result;
}
