import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** VmRSS of /proc/<pid>/status in bytes, or 0 when the process is gone or has none (a kernel thread). */
export function parseVmRss(status: string): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  return m ? Number(m[1]) * 1024 : 0;
}

/**
 * Memory a Pod uses: the resident set of its processes (kube reads the cgroup's working set; we
 * sum what each process holds, so pages two of them share count twice). Undefined without processes.
 */
export function memoryUsageOf(pids: number[]): number | undefined {
  let sum = 0;
  let seen = 0;
  for (const pid of pids) {
    try {
      sum += parseVmRss(readFileSync(`/proc/${pid}/status`, 'utf8'));
      seen++;
    } catch {
      // exited meanwhile
    }
  }
  return seen ? sum : undefined;
}

/** Bytes a directory tree occupies on disk (allocated blocks: a sparse image counts what it holds). */
export function diskUsageOf(dir: string): number {
  let sum = 0;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      continue;
    }
    for (const name of names) {
      const p = join(d, name);
      try {
        const st = lstatSync(p);
        if (st.isDirectory()) stack.push(p);
        else sum += st.blocks * 512;
      } catch {
        // removed meanwhile
      }
    }
  }
  return sum;
}
