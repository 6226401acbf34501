import { readFileSync, statfsSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { MachineFacts } from './node-object';

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
