/** The few kubevirt_vmi_* samples of one VMI out of a node agent's Prometheus text. */

export interface VMISample {
  cpuSeconds?: number;
  memoryDomainBytes?: number;
  memoryAvailableBytes?: number;
  memoryResidentBytes?: number;
  migration?: { processedBytes?: number; remainingBytes?: number; transferRate?: number; dirtyRate?: number };
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

function labelsOf(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of (text ?? '').matchAll(LABEL)) out[m[1]] = m[2].replace(/\\(.)/g, '$1');
  return out;
}

const FIELDS: Record<string, (s: VMISample, v: number) => void> = {
  kubevirt_vmi_cpu_usage_seconds_total: (s, v) => { s.cpuSeconds = v; },
  kubevirt_vmi_memory_domain_bytes: (s, v) => { s.memoryDomainBytes = v; },
  kubevirt_vmi_memory_available_bytes: (s, v) => { s.memoryAvailableBytes = v; },
  kubevirt_vmi_memory_resident_bytes: (s, v) => { s.memoryResidentBytes = v; },
  kubevirt_vmi_migration_data_processed_bytes: (s, v) => { (s.migration ??= {}).processedBytes = v; },
  kubevirt_vmi_migration_data_remaining_bytes: (s, v) => { (s.migration ??= {}).remainingBytes = v; },
  kubevirt_vmi_migration_memory_transfer_rate_bytes: (s, v) => { (s.migration ??= {}).transferRate = v; },
  kubevirt_vmi_migration_dirty_memory_rate_bytes: (s, v) => { (s.migration ??= {}).dirtyRate = v; },
};

export function readVMISample(text: string, namespace: string, name: string): VMISample {
  const s: VMISample = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith('kubevirt_vmi_')) continue;
    const m = LINE.exec(line);
    const set = m && FIELDS[m[1]];
    if (!set) continue;
    const l = labelsOf(m[3]);
    if (l.namespace !== namespace || l.name !== name) continue;
    const v = Number(m[4]);
    if (Number.isFinite(v)) set(s, v);
  }
  return s;
}
