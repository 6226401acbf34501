import { readFileSync, statfsSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { MachineFacts } from './node-object';
import { parseCpuList } from '../../lib/kubevirt/cpu-list';

function readOr(path: string, fallback: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return fallback;
  }
}

function osImage(): string {
  const release = readOr('/etc/os-release', '');
  return /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(release)?.[1] ?? 'Linux';
}

const ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64' };

/** What this machine has, read once at start. */
export function readMachineFacts(dataDir: string): MachineFacts {
  let diskBytes: number | undefined;
  try {
    const st = statfsSync(dataDir);
    diskBytes = st.blocks * st.bsize;
  } catch {
    diskBytes = undefined;
  }
  return {
    cpus: os.availableParallelism(),
    memoryBytes: os.totalmem(),
    diskBytes,
    kernelVersion: os.release(),
    osImage: osImage(),
    machineID: readOr('/etc/machine-id', readOr(join('/var/lib/dbus', 'machine-id'), 'unknown')),
    bootID: readOr('/proc/sys/kernel/random/boot_id', 'unknown'),
    architecture: ARCH[process.arch] ?? process.arch,
  };
}

/** Page sizes of an x86-64 host, as Kubernetes names their resources (hugepages-2Mi, hugepages-1Gi). */
export const HUGEPAGE_SIZES: Record<string, number> = { '2Mi': 2 * 2 ** 20, '1Gi': 2 ** 30 };

/**
 * Bytes of hugepages the host has reserved per resource (nr_hugepages × size), read on every
 * heartbeat so `sysctl vm.nr_hugepages` reaches the Node; 0 where the kernel has none of that size.
 */
export function readHugepages(sysDir = '/sys/kernel/mm/hugepages'): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, size] of Object.entries(HUGEPAGE_SIZES)) {
    const pages = Number(readOr(join(sysDir, `hugepages-${size / 1024}kB`, 'nr_hugepages'), '0'));
    out[`hugepages-${name}`] = Number.isFinite(pages) ? pages * size : 0;
  }
  return out;
}

/** The host's online CPUs (/sys/devices/system/cpu/online), else 0..n-1. */
export function hostCpus(): number[] {
  try {
    return parseCpuList(readFileSync('/sys/devices/system/cpu/online', 'utf8'));
  } catch {
    return Array.from({ length: os.cpus().length }, (_, i) => i);
  }
}
