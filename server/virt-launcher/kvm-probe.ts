/**
 * Is KVM usable here? /dev/kvm existing is not enough (on some hosts guests hang once they
 * enter long mode), so this boots a 64 KiB firmware under `-accel kvm` that goes from real
 * mode to 64-bit long mode with paging and writes to isa-debug-exit; KVM counts only if QEMU
 * exits with that code within the time box. Cached per node, and per host boot for the kubelets
 * (one probe per machine, not per test cluster); `KV_ACCEL=tcg|kvm` overrides.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { log } from '../log';

export type Accel = 'kvm' | 'tcg';
/** `kvm` mirrors `accel` for readers of kvm-probe.json (server/node/kvm-probe-result.ts). */
export interface ProbeResult { accel: Accel; kvm: boolean; reason: string; durationMs: number; probedAt: string }

const logger = log.child({ component: 'kvm-probe' });
export const KVM_DEVICE = '/dev/kvm';
export const PROBE_FILE = 'kvm-probe.json';
/** Changes on every boot: a host probe result is trusted only within the boot that produced it. */
const BOOT_ID_FILE = '/proc/sys/kernel/random/boot_id';
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

/** This machine's probe cache: the answer holds until the host reboots (every local node and test cluster shares it). */
export function defaultHostProbeFile(): string {
  return join(homedir(), '.cache', 'kubevirt-ts', PROBE_FILE);
}

async function readBootId(): Promise<string> {
  return (await readFile(BOOT_ID_FILE, 'utf8').catch(() => '')).trim();
}

async function readCached(file: string | undefined, bootId?: string): Promise<ProbeResult | undefined> {
  if (!file) return undefined;
  const cached = await readFile(file, 'utf8').then((t) => JSON.parse(t) as ProbeResult & { bootId?: string }, () => undefined);
  if (cached?.accel !== 'kvm' && cached?.accel !== 'tcg') return undefined;
  return bootId === undefined || (bootId !== '' && cached.bootId === bootId) ? cached : undefined;
}

async function writeCache(file: string | undefined, result: object): Promise<void> {
  if (!file) return;
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(result)}\n`);
}

/**
 * KV_ACCEL override, else the node's cached result (`cacheDir/kvm-probe.json`), else the host's
 * from this boot (`hostCacheFile`), else a fresh probe; the answer is cached in both.
 */
export async function detectAccel(opts: { cacheDir?: string; hostCacheFile?: string; timeoutMs?: number; env?: Record<string, string | undefined> } = {}): Promise<ProbeResult> {
  const forced = (opts.env ?? process.env).KV_ACCEL;
  if (forced === 'kvm' || forced === 'tcg') return { accel: forced, kvm: forced === 'kvm', reason: 'KV_ACCEL', durationMs: 0, probedAt: new Date().toISOString() };
  const cacheFile = opts.cacheDir ? join(opts.cacheDir, PROBE_FILE) : undefined;
  const nodeCached = await readCached(cacheFile);
  if (nodeCached) return nodeCached;
  const bootId = await readBootId();
  const hostCached = await readCached(opts.hostCacheFile, bootId);
  if (hostCached) {
    await writeCache(cacheFile, hostCached);
    return hostCached;
  }
  const result = { ...(await probe(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS)), probedAt: new Date().toISOString() };
  logger.info(result, 'accelerator probed');
  await writeCache(cacheFile, result);
  if (bootId) await writeCache(opts.hostCacheFile, { ...result, bootId }).catch(() => undefined); // a read-only home only costs re-probing
  return result;
}
