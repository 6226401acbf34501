/**
 * Storage figures. Import: the importer's own path (a real HTTP server on loopback → scratch or
 * straight from the URL → qemu-img → disk.img sized to the claim) for a qcow2 and a raw source of
 * SIZE with half of it written (random data), against three baselines, run alternately with ours:
 * `qemu-img convert` of the same file on local disk, in the page cache (the issue's baseline) and
 * dropped from it (fadvise DONTNEED on that file only), and `qemu-img convert` from the same URL
 * (the floor of any HTTP importer, what CDI runs). Servers, each its own process: python's
 * http.server (no ranges), bench/range-file-server.ts (Node, ranges) and, where Debian's busybox
 * has it, `busybox httpd` (ranges, sendfile) to tell the server's cost from the importer's.
 * Goal: ≥ 90 % of qemu-img's throughput. Snapshot: the copy a VirtualMachineSnapshot makes of a
 * claim's disk.img of SIZE with half written (goal ≤ 1 s for 1 GiB).
 * Usage: node --import tsx bench/storage-bench.ts [size=1Gi] [runs=3]
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeSync, closeSync } from 'node:fs';
import { loadavg as osLoadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomFillSync } from 'node:crypto';
import { parseQuantity } from '../lib/kubevirt/quantity';
import { importDisk } from '../server/cdi/importer/import-disk';
import { ProgressFile } from '../server/cdi/importer/progress';
import { copyDisk } from '../server/virt-controller/snapshot/volume-copy';

const SIZE = parseQuantity(process.argv[2] ?? '1Gi')!;
const RUNS = Number(process.argv[3] ?? 3);
const out = (s: string) => process.stdout.write(`${s}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mibps = (bytes: number, ms: number) => (bytes / 2 ** 20) / (ms / 1000);
const spread = (xs: number[]) => `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))}`;
/** a qemu-img convert from a URL that has not finished in this long has hung (QEMU 7.2's curl driver) */
const HANG_MS = 60_000;

/** SIZE bytes, every other MiB random (half written, half a hole) */
function makeRaw(file: string): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(2 ** 20);
  for (let off = 0; off < SIZE; off += 2 * 2 ** 20) {
    randomFillSync(chunk);
    writeSync(fd, chunk, 0, chunk.length, off);
  }
  closeSync(fd);
  execFileSync('truncate', ['-s', String(SIZE), file]);
}

/** the file's pages out of the page cache (written back first), nothing else's */
function dropFromCache(file: string): void {
  execFileSync('python3', ['-c', 'import os,sys; fd=os.open(sys.argv[1], os.O_RDONLY); os.fsync(fd); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)', file]);
}

/** ms for `qemu-img convert` to raw, or Infinity when it hung */
function timeConvert(src: string, format: string, dest: string): number {
  const t = performance.now();
  const r = spawnSync('qemu-img', ['convert', '-f', format, '-O', 'raw', '-t', 'writeback', src, dest], { timeout: HANG_MS, killSignal: 'SIGKILL' });
  const ms = performance.now() - t;
  rmSync(dest, { force: true });
  if (r.status !== 0) return Infinity;
  return ms;
}

const loadavg = () => osLoadavg().map((x) => x.toFixed(1)).join(' ');
const urlSource = (url: string) => `json:${JSON.stringify({ file: { driver: 'http', url, timeout: 60 } })}`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kv-storage-bench-'));
  try {
    const raw = join(dir, 'src.raw');
    const qcow2 = join(dir, 'src.qcow2');
    makeRaw(raw);
    execFileSync('qemu-img', ['convert', '-f', 'raw', '-O', 'qcow2', raw, qcow2]);
    // each server is its own process, as it would be on another machine
    const port = 20000 + Math.floor(Math.random() * 20000);
    const hasBusyboxHttpd = /^httpd$/m.test(spawnSync('busybox', ['--list']).stdout?.toString() ?? '');
    const servers = [
      { name: 'python http.server (no ranges: download, then convert)', port, proc: spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', dir], { stdio: 'ignore' }) },
      { name: 'Node range-file-server (ranges: converted from the URL)', port: port + 1, proc: spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'range-file-server.ts'), dir, String(port + 1)], { stdio: 'ignore' }) },
      ...(hasBusyboxHttpd ? [{ name: 'busybox httpd (ranges, sendfile, a fork per connection)', port: port + 2, proc: spawn('busybox', ['httpd', '-f', '-p', `127.0.0.1:${port + 2}`, '-h', dir], { stdio: 'ignore' }) }] : []),
    ];
    for (const server of servers) {
      for (let i = 0; i < 100; i++) {
        if (await fetch(`http://127.0.0.1:${server.port}/src.raw`, { method: 'HEAD' }).then(() => true, () => false)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    out(`source: ${SIZE / 2 ** 20} MiB, half written; qcow2 file ${Math.round(statSync(qcow2).size / 2 ** 20)} MiB; load ${loadavg()}`);
    const rate = (xs: number[]) => (median(xs) === Infinity ? `hung (median; ${xs.filter((x) => x === Infinity).length} of ${xs.length} runs)` : `${mibps(SIZE, median(xs)).toFixed(0)} MiB/s (${spread(xs.filter((x) => x !== Infinity))} ms${xs.some((x) => x === Infinity) ? `, ${xs.filter((x) => x === Infinity).length} hung` : ''})`);
    for (const [name, file, format] of [['qcow2', qcow2, 'qcow2'], ['raw', raw, 'raw']] as const) {
      const cached: number[] = [];
      const cold: number[] = [];
      const floor = new Map<string, number[]>();
      const ours = new Map<string, number[]>();
      for (let i = 0; i < RUNS; i++) {
        const dest = join(dir, 'convert.raw');
        dropFromCache(file);
        cold.push(timeConvert(file, format, dest));
        cached.push(timeConvert(file, format, dest));
        for (const server of servers) {
          const url = `http://127.0.0.1:${server.port}/src.${name}`;
          if (server.port !== port) {
            dropFromCache(file);
            timeConvert(file, format, dest); // the server reads from the page cache, as the local baseline does
            floor.set(server.name, [...(floor.get(server.name) ?? []), timeConvert(urlSource(url), format, dest)]);
          }
          const target = join(dir, `claim-${i}`);
          const pod = join(dir, `pod-${i}`);
          mkdirSync(target);
          mkdirSync(pod, { recursive: true });
          const t = performance.now();
          await importDisk({ source: 'http', endpoint: url, sizeBytes: SIZE, target, podDir: pod }, new ProgressFile(pod), { warn: (m) => out(`  (${server.name}: ${m})`) });
          ours.set(server.name, [...(ours.get(server.name) ?? []), performance.now() - t]);
          rmSync(target, { recursive: true });
          rmSync(pod, { recursive: true });
        }
      }
      const base = median(cached);
      out(`${name}: qemu-img convert of the local file, page-cached ${rate(cached)}; cold cache ${rate(cold)}`);
      for (const server of servers) {
        const o = median(ours.get(server.name)!);
        const f = floor.get(server.name);
        const fm = f ? median(f) : undefined;
        out(`  ${server.name}: ours ${rate(ours.get(server.name)!)} → ${(100 * base / o).toFixed(0)} % of the cached convert, ${(100 * median(cold) / o).toFixed(0)} % of the cold one` +
          (f ? `; qemu-img convert from the URL ${rate(f)} → ours ${fm === Infinity ? '—' : (100 * fm! / o).toFixed(0)} % of it` : ''));
      }
    }
    for (const server of servers) server.proc.kill();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await copyDisk(raw, join(dir, 'snap', `copy-${i}.img`));
      times.push(performance.now() - t);
      rmSync(join(dir, 'snap', `copy-${i}.img`));
    }
    out(`snapshot copy of the ${SIZE / 2 ** 20} MiB disk (half written): median ${median(times).toFixed(0)} ms (runs: ${times.map((x) => x.toFixed(0)).join(', ')})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
