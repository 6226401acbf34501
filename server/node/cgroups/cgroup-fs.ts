import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { POD_CGROUP_RE } from './pod-cgroups';

/** Small filesystem helpers shared by the v1 and v2 drivers. */
export function writeControl(dir: string, file: string, value: string): void {
  try {
    writeFileSync(join(dir, file), value);
  } catch (err) {
    throw new Error(`cgroup: cannot write ${value} to ${join(dir, file)}: ${(err as Error).message}`, { cause: err });
  }
}

export function readControl(dir: string, file: string): string | undefined {
  try {
    return readFileSync(join(dir, file), 'utf8');
  } catch {
    return undefined;
  }
}

export function ensureDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
}

/** `key value` lines (memory.oom_control, memory.events) → the value of `key`. */
export function readKeyedCount(dir: string, file: string, key: string): number {
  const text = readControl(dir, file) ?? '';
  const m = new RegExp(`^${key} (\\d+)$`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

export function readPids(dir: string): number[] {
  return (readControl(dir, 'cgroup.procs') ?? '')
    .split('\n')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
}

export function killAll(dir: string): void {
  for (const pid of readPids(dir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** rmdir a cgroup; true when it is gone (EBUSY while dying processes still hold it). */
export function removeDir(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

export function listPodUids(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => POD_CGROUP_RE.exec(e.name)?.[1])
      .filter((u): u is string => u !== undefined);
  } catch {
    return [];
  }
}
