/**
 * Per-VMI Prometheus metrics with KubeVirt's names (pkg/monitoring/metrics/virt-handler/domainstats),
 * labels node/namespace/name (+ interface / drive), read from each launcher's `stats` at scrape time.
 * Counters carry the launcher's absolute totals: they are reset and re-set on every scrape.
 */
import { Counter, Gauge, Registry } from 'prom-client';
import type { VirtualMachineInstance } from '../../lib/kubevirt';
import type { DomainStats } from '../virt-launcher/protocol';

const STATS_TIMEOUT_MS = 2_000;
const BASE = ['node', 'namespace', 'name'] as const;

export interface StatsSource {
  /** VMIs running on this node with a way to read their launcher's stats. */
  running(): { vmi: VirtualMachineInstance; stats: () => Promise<DomainStats> }[];
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((r) => { timer = setTimeout(() => r(undefined), ms); });
  return Promise.race([p.catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

export interface HandlerMetrics {
  registry: Registry;
  /** Refresh from the launchers, then render the Prometheus text format. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

export function createHandlerMetrics(node: string, source: StatsSource): HandlerMetrics {
  const registry = new Registry();
  const counter = (name: string, help: string, extra: string[] = []) => new Counter({ name, help, labelNames: [...BASE, ...extra], registers: [registry] });
  const gauge = (name: string, help: string) => new Gauge({ name, help, labelNames: [...BASE], registers: [registry] });
  const m = {
    cpu: counter('kubevirt_vmi_cpu_usage_seconds_total', 'Total CPU time spent in all modes (vCPU and hypervisor).'),
    cpuUser: counter('kubevirt_vmi_cpu_user_usage_seconds_total', 'Total CPU time spent in user mode.'),
    cpuSystem: counter('kubevirt_vmi_cpu_system_usage_seconds_total', 'Total CPU time spent in system mode.'),
    memDomain: gauge('kubevirt_vmi_memory_domain_bytes', 'The amount of memory in bytes allocated to the domain.'),
    memAvailable: gauge('kubevirt_vmi_memory_available_bytes', 'Amount of usable memory as seen by the domain.'),
    memResident: gauge('kubevirt_vmi_memory_resident_bytes', 'Resident set size of the process running the domain.'),
    memBalloon: gauge('kubevirt_vmi_memory_actual_balloon_bytes', 'Current balloon size in bytes.'),
    rx: counter('kubevirt_vmi_network_receive_bytes_total', 'Total network traffic received in bytes.', ['interface']),
    tx: counter('kubevirt_vmi_network_transmit_bytes_total', 'Total network traffic transmitted in bytes.', ['interface']),
    rxPackets: counter('kubevirt_vmi_network_receive_packets_total', 'Total network traffic received packets.', ['interface']),
    txPackets: counter('kubevirt_vmi_network_transmit_packets_total', 'Total network traffic transmitted packets.', ['interface']),
    rd: counter('kubevirt_vmi_storage_read_traffic_bytes_total', 'Storage read traffic in bytes.', ['drive']),
    wr: counter('kubevirt_vmi_storage_write_traffic_bytes_total', 'Storage write traffic in bytes.', ['drive']),
    rdOps: counter('kubevirt_vmi_storage_iops_read_total', 'Total number of I/O read operations.', ['drive']),
    wrOps: counter('kubevirt_vmi_storage_iops_write_total', 'Total number of I/O write operations.', ['drive']),
    rdTime: counter('kubevirt_vmi_storage_read_times_seconds_total', 'Total time spent on read operations.', ['drive']),
    wrTime: counter('kubevirt_vmi_storage_write_times_seconds_total', 'Total time spent on write operations.', ['drive']),
    flush: counter('kubevirt_vmi_storage_flush_requests_total', 'Total storage flush requests.', ['drive']),
  };
  const all = Object.values(m);

  const record = (labels: Record<string, string>, s: DomainStats) => {
    m.cpu.inc(labels, s.cpuSeconds.total);
    m.cpuUser.inc(labels, s.cpuSeconds.user);
    m.cpuSystem.inc(labels, s.cpuSeconds.system);
    m.memDomain.set(labels, s.memory.domainBytes);
    m.memAvailable.set(labels, s.memory.actualBalloonBytes ?? s.memory.domainBytes);
    if (s.memory.residentBytes !== undefined) m.memResident.set(labels, s.memory.residentBytes);
    if (s.memory.actualBalloonBytes !== undefined) m.memBalloon.set(labels, s.memory.actualBalloonBytes);
    for (const n of s.net) {
      const l = { ...labels, interface: n.name };
      m.rx.inc(l, n.rxBytes ?? 0); m.tx.inc(l, n.txBytes ?? 0);
      m.rxPackets.inc(l, n.rxPackets ?? 0); m.txPackets.inc(l, n.txPackets ?? 0);
    }
    for (const b of s.block) {
      const l = { ...labels, drive: b.name };
      m.rd.inc(l, b.readBytes); m.wr.inc(l, b.writeBytes); m.rdOps.inc(l, b.readOps); m.wrOps.inc(l, b.writeOps);
      m.rdTime.inc(l, b.readTimeNs / 1e9); m.wrTime.inc(l, b.writeTimeNs / 1e9); m.flush.inc(l, b.flushOps);
    }
  };

  /** Refresh every metric from the launchers; call before `registry.metrics()`. */
  const refresh = async () => {
    const targets = source.running();
    const results = await Promise.all(targets.map((t) => withTimeout(t.stats(), STATS_TIMEOUT_MS)));
    for (const metric of all) metric.reset();
    targets.forEach((t, i) => {
      const s = results[i];
      if (s) record({ node, namespace: t.vmi.metadata.namespace ?? '', name: t.vmi.metadata.name ?? '' }, s);
    });
  };
  const scrape = async () => {
    await refresh();
    return { contentType: registry.contentType, body: await registry.metrics() };
  };
  return { registry, scrape };
}
