/**
 * Storage figures. Import: the importer's own path (a real HTTP server on loopback → scratch →
 * qemu-img → disk.img sized to the claim) against `qemu-img convert` of the same local file to raw,
 * for a qcow2 and a raw source of SIZE with half of it written (random data). Goal: ≥ 90 % of
 * qemu-img's throughput. Snapshot: the copy a VirtualMachineSnapshot makes of a claim's disk.img of
 * SIZE with half written (goal ≤ 1 s for 1 GiB).
 * Usage: node --import tsx bench/storage-bench.ts [size=1Gi] [runs=3]
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kv-storage-bench-'));
  try {
    const raw = join(dir, 'src.raw');
    const qcow2 = join(dir, 'src.qcow2');
    makeRaw(raw);
    execFileSync('qemu-img', ['convert', '-f', 'raw', '-O', 'qcow2', raw, qcow2]);
    // each server is its own process, as it would be on another machine: python's http.server
    // ignores Range (the importer downloads, then converts), the other serves ranges (qemu-img
    // converts straight from the URL)
    const plainPort = 20000 + Math.floor(Math.random() * 20000);
    const rangedPort = plainPort + 1;
    const servers = [
      spawn('python3', ['-m', 'http.server', String(plainPort), '--bind', '127.0.0.1', '--directory', dir], { stdio: 'ignore' }),
      spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'range-file-server.ts'), dir, String(rangedPort)], { stdio: 'ignore' }),
    ];
    for (const port of [plainPort, rangedPort]) {
      for (let i = 0; i < 100; i++) {
        if (await fetch(`http://127.0.0.1:${port}/`).then(() => true, () => false)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    out(`source: ${SIZE / 2 ** 20} MiB, half written; qcow2 file ${Math.round(statSync(qcow2).size / 2 ** 20)} MiB`);
    for (const [server, port] of [['no ranges (download, then convert)', plainPort], ['byte ranges (converted from the URL)', rangedPort]] as const) {
      for (const [name, file, format] of [['qcow2', qcow2, 'qcow2'], ['raw', raw, 'raw']] as const) {
        const ours: number[] = [];
        const theirs: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          const target = join(dir, `claim-${name}-${i}`);
          mkdirSync(target);
          const pod = join(dir, `pod-${name}-${i}`);
          mkdirSync(pod, { recursive: true });
          let t = performance.now();
          await importDisk({ source: 'http', endpoint: `http://127.0.0.1:${port}/src.${name}`, sizeBytes: SIZE, target, podDir: pod }, new ProgressFile(pod));
          ours.push(performance.now() - t);
          rmSync(target, { recursive: true });
          const dest = join(dir, `convert-${i}.raw`);
          t = performance.now();
          execFileSync('qemu-img', ['convert', '-f', format, '-O', 'raw', '-t', 'writeback', file, dest]);
          theirs.push(performance.now() - t);
          rmSync(dest);
        }
        const o = median(ours);
        const q = median(theirs);
        out(`import ${name}, server with ${server}: ours ${o.toFixed(0)} ms (${mibps(SIZE, o).toFixed(0)} MiB/s), qemu-img convert of the local file ${q.toFixed(0)} ms (${mibps(SIZE, q).toFixed(0)} MiB/s) → ${(100 * q / o).toFixed(0)} % of qemu-img`);
      }
    }
    for (const server of servers) server.kill();
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
