/**
 * The floor for a VMI's create → login prompt: the same guest started as bare QEMU processes, none
 * of our machinery — the machine type, CPU, devices, disk overlay and user network our launcher
 * gives the demo VMI (server/virt-launcher/converter/testdata/containerdisk-demo.output.txt), the
 * serial console on stdio — started `count` at a time at `rate` per second, as the bench starts
 * VMIs, so they compete for the cores as ours do. Resolves with each one's start → `login:` in ms.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveImage } from '../server/images/image-store';
import { TCG_TB_SIZE_MIB } from '../lib/kubevirt/tcg';

const POKE_MS = 300;

export interface FloorOptions { imagesDir: string; count: number; rate: number; memory: string; timeoutMs: number }

/** the demo VMI's QEMU arguments as our launcher writes them; `nic` replaces its user network (e.g. a tap) and sets the MAC */
export function qemuArgs(img: { kernel: string; initrd: string; cmdline?: string }, overlay: string, memory: string, i: number, nic?: { netdev: Record<string, unknown>; mac: string }): string[] {
  return [
    '-name', `guest=raw_${i}`, '-no-user-config', '-nodefaults', '-machine', 'q35', '-accel', `tcg,thread=multi,tb-size=${TCG_TB_SIZE_MIB}`, '-cpu', 'max',
    '-smp', '1,sockets=1,cores=1,threads=1', '-m', memory.replace(/i$/, ''),
    '-kernel', img.kernel, '-initrd', img.initrd, '-append', img.cmdline ?? 'console=ttyS0',
    '-rtc', 'base=utc,driftfix=slew', '-display', 'none', '-serial', 'stdio',
    '-device', '{"driver":"VGA","id":"video0","vgamem_mb":16}',
    '-device', '{"driver":"virtio-serial-pci","id":"virtio-serial0"}',
    '-device', '{"driver":"virtio-scsi-pci","id":"scsi0"}',
    '-blockdev', JSON.stringify({ 'node-name': 'drive-root', driver: 'qcow2', discard: 'unmap', file: { driver: 'file', filename: overlay } }),
    '-device', '{"driver":"virtio-blk-pci","id":"ua-root","drive":"drive-root"}',
    '-netdev', JSON.stringify(nic ? { ...nic.netdev, id: 'net-default' } : { type: 'user', id: 'net-default', net: '10.0.2.0/24' }),
    '-device', JSON.stringify({ driver: 'virtio-net-pci', id: 'ua-default', netdev: 'net-default', ...(nic ? { mac: nic.mac } : {}), romfile: '' }),
    '-device', '{"driver":"virtio-balloon-pci","id":"balloon0","free-page-reporting":true}',
  ];
}

interface RawBoot { loginMs: Promise<number>; kill: () => void }

/** One QEMU to its login prompt; it keeps running afterwards (as a VMI's guest does) until killed. */
function bootToLogin(args: string[], timeoutMs: number): RawBoot {
  const t0 = performance.now();
  const qemu = spawn('qemu-system-x86_64', args, { stdio: ['pipe', 'pipe', 'ignore'] });
  let out = '';
  let seen = false;
  const loginMs = new Promise<number>((resolve, reject) => {
    const done = (err?: Error) => { clearTimeout(timer); clearInterval(poke); if (err) { qemu.kill('SIGKILL'); reject(err); } else resolve(performance.now() - t0); };
    const timer = setTimeout(() => done(new Error('raw boot: no login prompt in time')), timeoutMs);
    const poke = setInterval(() => qemu.stdin.write('\r'), POKE_MS);
    qemu.stdout.on('data', (d: Buffer) => {
      if (seen) return;
      out = (out + d.toString('latin1')).slice(-64);
      if (out.includes('login:')) { seen = true; done(); }
    });
    qemu.once('exit', (code) => { if (!seen) done(new Error(`raw boot: QEMU exited (${code})`)); });
  });
  return { loginMs, kill: () => { qemu.kill('SIGKILL'); } };
}

/** start → login prompt of `count` raw QEMUs started at `rate`/s, all running at once (ms each) */
export async function rawQemuFloor(o: FloorOptions): Promise<number[]> {
  const img = resolveImage(o.imagesDir, 'demo');
  if (!img?.kernel || !img.initrd || !img.disk) throw new Error('demo image not in the store');
  const dir = mkdtempSync(join(tmpdir(), 'kv-raw-floor-'));
  try {
    const overlays = Array.from({ length: o.count }, (_, i) => {
      const file = join(dir, `${i}.qcow2`);
      execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', '-b', img.disk!, '-F', img.format, file]);
      return file;
    });
    const t0 = performance.now();
    const boots: RawBoot[] = [];
    try {
      for (let i = 0; i < o.count; i++) {
        await new Promise((r) => setTimeout(r, Math.max(0, t0 + (i * 1000) / o.rate - performance.now())));
        boots.push(bootToLogin(qemuArgs({ kernel: img.kernel, initrd: img.initrd, cmdline: img.cmdline }, overlays[i], o.memory, i), o.timeoutMs));
      }
      return await Promise.all(boots.map((b) => b.loginMs));
    } finally {
      for (const b of boots) b.kill();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
