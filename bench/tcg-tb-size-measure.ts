/**
 * Does `-accel tcg,tb-size=N` bound QEMU's memory without slowing a demo boot? Boots the demo guest as
 * bare QEMU (our launcher's arguments, bench/raw-qemu-floor.ts) `--rounds` times per accel setting (rounds interleave
 * the settings), one at a time, and prints start → `login:` and QEMU's RSS / USS / translation-cache RSS `--settle` s after the prompt (median of rounds).
 * Usage: node --import tsx bench/tcg-tb-size-measure.ts [--images ~/.kubevirt-ts/images] [--rounds 3] [--sizes 0,16,32,64] [--settle 10]
 * (size 0: QEMU's default, no tb-size; --memory 96Mi by default: the demo guest does not boot in 64 MiB)
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveImage } from '../server/images/image-store';
import { memoryOf } from './cluster-memory';
import { qemuArgs } from './raw-qemu-floor';

const { values: flags } = parseArgs({ options: { images: { type: 'string', default: join(homedir(), '.kubevirt-ts', 'images') }, rounds: { type: 'string', default: '3' }, sizes: { type: 'string', default: '0,16,32,64' }, settle: { type: 'string', default: '10' }, memory: { type: 'string', default: '96Mi' } } });
const SETTLE_MS = Number(flags.settle) * 1000;
/** QEMU's own tb-size when none is given (x86-64 host, QEMU ≥ 5.0): 1 GiB, reserved and filled as code is translated */
const DEFAULT_TB_MIB = 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** RSS (KiB) of QEMU's translation cache: the anonymous mapping of tb-size MiB (less a guard page) */
function tbCacheKiB(pid: number, tbMiB: number): number {
  const text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  let rss = 0;
  for (const block of text.split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)) {
    const head = block.split('\n')[0].trim().split(/\s+/);
    const size = Number(/^Size:\s+(\d+)/m.exec(block)?.[1] ?? 0);
    if (head.length === 5 && (size === tbMiB * 1024 || size === tbMiB * 1024 - 4)) rss += Number(/^Rss:\s+(\d+)/m.exec(block)?.[1] ?? 0);
  }
  return rss;
}

async function boot(args: string[], tbMiB: number): Promise<{ loginMs: number; rssKiB: number; ussKiB: number; tbKiB: number }> {
  const t0 = performance.now();
  const qemu = spawn('qemu-system-x86_64', args, { stdio: ['pipe', 'pipe', 'ignore'] });
  try {
    const loginMs = await new Promise<number>((resolve, reject) => {
      let out = '';
      const poke = setInterval(() => qemu.stdin.write('\r'), 300);
      const timer = setTimeout(() => { clearInterval(poke); reject(new Error('no login prompt in 120 s')); }, 120_000);
      qemu.stdout.on('data', (d: Buffer) => {
        out = (out + d.toString('latin1')).slice(-64);
        if (out.includes('login:')) { clearInterval(poke); clearTimeout(timer); resolve(performance.now() - t0); }
      });
      qemu.once('exit', (code) => { clearInterval(poke); clearTimeout(timer); reject(new Error(`QEMU exited (${code})`)); });
    });
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    return { loginMs, ...memoryOf(qemu.pid!), tbKiB: tbCacheKiB(qemu.pid!, tbMiB) };
  } finally {
    qemu.kill('SIGKILL');
  }
}

const img = resolveImage(flags.images, 'demo');
if (!img?.kernel || !img.initrd || !img.disk) throw new Error(`demo image not in ${flags.images}`);
const dir = mkdtempSync(join(tmpdir(), 'kv-tb-size-'));
try {
  // rounds interleave the settings, so a change in the machine's load falls on all of them alike
  const sizes = flags.sizes.split(',').map(Number);
  const runs = new Map<number, Awaited<ReturnType<typeof boot>>[]>(sizes.map((s) => [s, []]));
  for (let r = 0; r < Number(flags.rounds); r++) {
    for (const size of sizes) {
      const overlay = join(dir, `${size}-${r}.qcow2`);
      execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', '-b', img.disk, '-F', img.format, overlay]);
      const args = qemuArgs({ kernel: img.kernel, initrd: img.initrd, cmdline: img.cmdline }, overlay, flags.memory, r);
      args[args.indexOf('-accel') + 1] = size > 0 ? `tcg,thread=multi,tb-size=${size}` : 'tcg,thread=multi';
      runs.get(size)!.push(await boot(args, size || DEFAULT_TB_MIB));
    }
  }
  const mib = (kib: number) => (kib / 1024).toFixed(1);
  for (const [size, xs] of runs) {
    console.log(`tb-size ${size || 'default'}: login ${xs.map((x) => (x.loginMs / 1000).toFixed(1)).join(', ')} s (median ${(median(xs.map((x) => x.loginMs)) / 1000).toFixed(1)}); QEMU RSS ${mib(median(xs.map((x) => x.rssKiB)))} MiB, USS ${mib(median(xs.map((x) => x.ussKiB)))} MiB, translation cache RSS ${mib(median(xs.map((x) => x.tbKiB)))} MiB`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
