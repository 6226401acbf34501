/**
 * CPU seconds (user + system) each process of a `kv up` cluster has used so far, by component
 * (`apiserver`, `virt-api`, `control-plane`, `console`, …, and `launcher` for the launcher
 * processes of its Pods), read from /proc. A bench samples it before and after a run.
 */
import { readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICKS = 100;

function componentOf(args: string[], env: string, dataDir: string): string | undefined {
  const kvAt = args.findIndex((a) => a.endsWith('kv.mjs') || a.endsWith('cli.mjs'));
  const command = kvAt < 0 ? undefined : args[kvAt + 1];
  if (args.includes(dataDir) && args[0] !== 'setpriv') return command ?? 'other';
  // launchers get their data dir from the kubelet's environment, not their arguments
  if (command === 'launcher' && env.includes(dataDir)) return 'launcher';
  return undefined;
}

export function componentCpu(dataDir: string): Map<string, number> {
  const cpu = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const name = componentOf(args, readFileSync(`/proc/${pid}/environ`, 'utf8'), dataDir);
      if (!name) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      cpu.set(name, (cpu.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS);
    } catch { /* exited meanwhile */ }
  }
  return cpu;
}

/** `a` → `b` per component, seconds: what a run used */
export function cpuUsed(a: Map<string, number>, b: Map<string, number>): Map<string, number> {
  return new Map([...b].map(([k, v]) => [k, v - (a.get(k) ?? 0)] as [string, number]).filter(([, v]) => v > 0));
}

export const cpuDiff = (a: Map<string, number>, b: Map<string, number>) => [...cpuUsed(a, b)].map(([k, v]) => `${k} ${v.toFixed(1)} s`).join(', ');
