/** Figures for virt-handler's metrics: CPU time from /proc, balloon and block stats from QMP. */
import { readFile } from 'node:fs/promises';
import type { DomainStats } from './protocol';
import type { QmpClient } from './qmp-client';

/** USER_HZ, 100 on every Linux we run on. */
const CLOCK_TICKS = 100;

async function readCpuSeconds(pid: number): Promise<DomainStats['cpuSeconds']> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const user = Number(fields[11] ?? 0) / CLOCK_TICKS;
  const system = Number(fields[12] ?? 0) / CLOCK_TICKS;
  return { total: user + system, user, system };
}

async function readResidentBytes(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const m = /^VmRSS:\s+(\d+) kB/m.exec(status);
  return m ? Number(m[1]) * 1024 : undefined;
}

interface BlockStats { 'node-name'?: string; qdev?: string; stats: Record<string, number> }

function blockName(b: BlockStats): string {
  if (b['node-name']?.startsWith('drive-')) return b['node-name'].slice('drive-'.length);
  return b.qdev?.match(/ua-([^/]+)/)?.[1] ?? b['node-name'] ?? b.qdev ?? 'unknown';
}

export async function collectDomainStats(opts: { qmp: QmpClient; pid: number; vcpus: number; memoryBytes: number }): Promise<DomainStats> {
  const [cpuSeconds, residentBytes, balloon, blocks] = await Promise.all([
    readCpuSeconds(opts.pid),
    readResidentBytes(opts.pid),
    opts.qmp.execute<{ actual: number }>('query-balloon').catch(() => undefined),
    opts.qmp.execute<BlockStats[]>('query-blockstats', { 'query-nodes': false }).catch(() => [] as BlockStats[]),
  ]);
  return {
    timestamp: new Date().toISOString(),
    cpuSeconds,
    vcpus: opts.vcpus,
    memory: { domainBytes: opts.memoryBytes, residentBytes, actualBalloonBytes: balloon?.actual },
    block: blocks.filter((b) => b.qdev || b['node-name']).map((b) => ({
      name: blockName(b), readBytes: b.stats.rd_bytes ?? 0, writeBytes: b.stats.wr_bytes ?? 0,
      readOps: b.stats.rd_operations ?? 0, writeOps: b.stats.wr_operations ?? 0,
      readTimeNs: b.stats.rd_total_time_ns ?? 0, writeTimeNs: b.stats.wr_total_time_ns ?? 0, flushOps: b.stats.flush_operations ?? 0,
    })),
    net: [],
  };
}
