/**
 * The create-VM catalogue of cluster instance types, as OpenShift's console offers it: the types
 * grouped by series (the part of the name before the dot: u1, o1, cx1, m1), each series' sizes from
 * smallest to largest, and a size said in words ("2 CPUs, 8 GiB memory"). The namespace's own
 * instance types (VirtualMachineInstancetype) join the same series, marked as namespaced.
 */
import type { Instancetype, Preference } from '../kubevirt';
import { quantityBytes } from './format';
import { encodeInstancetypeChoice } from './instancetype-choice';

export interface CatalogueSize {
  name: string; size: string; cpus: number; memory: string; memoryBytes: number; words: string;
  /** a VirtualMachineInstancetype of the VM's namespace (else a cluster one) */
  namespaced: boolean;
  /** the form's value for it (instancetype-choice.ts) */
  choice: string;
}
export interface CatalogueSeries { series: string; title: string; description: string; sizes: CatalogueSize[] }

/** What each common series is for (KubeVirt common-instancetypes' classes). */
const SERIES_TITLES: Record<string, string> = {
  u1: 'General purpose', o1: 'Overcommitted', cx1: 'Compute exclusive', m1: 'Memory intensive', n1: 'Network', gn1: 'GPU',
};

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

/** `1 CPU, 512 MiB memory`, `2 CPUs, 8 GiB memory` (whole units without a trailing .0). */
export function sizeInWords(cpus: number, memory: string): string {
  const bytes = quantityBytes(memory) ?? 0;
  const mem = bytes >= GIB ? `${Number((bytes / GIB).toFixed(1))} GiB` : `${Number((bytes / MIB).toFixed(1))} MiB`;
  return `${cpus} CPU${cpus === 1 ? '' : 's'}, ${mem} memory`;
}

/** The series of the cluster types and, beside them in the same series, the namespace's own types. */
export function buildCatalogue(types: Instancetype[], namespacedTypes: Instancetype[] = []): CatalogueSeries[] {
  const bySeries = new Map<string, CatalogueSeries>();
  const all = [...types.map((t) => ({ t, namespaced: false })), ...namespacedTypes.map((t) => ({ t, namespaced: true }))];
  for (const { t, namespaced } of all) {
    const name = t.metadata.name ?? '';
    const cpus = t.spec?.cpu?.guest;
    const memory = t.spec?.memory?.guest;
    if (!name || typeof cpus !== 'number' || typeof memory !== 'string') continue;
    const dot = name.indexOf('.');
    const series = dot > 0 ? name.slice(0, dot) : name;
    const entry = bySeries.get(series) ?? {
      series, title: SERIES_TITLES[series] ?? series,
      description: t.metadata.annotations?.['instancetype.kubevirt.io/description'] ?? '', sizes: [],
    };
    entry.sizes.push({ name, size: dot > 0 ? name.slice(dot + 1) : name, cpus, memory, memoryBytes: quantityBytes(memory) ?? 0, words: sizeInWords(cpus, memory), namespaced, choice: encodeInstancetypeChoice(name, namespaced) });
    bySeries.set(series, entry);
  }
  const order = Object.keys(SERIES_TITLES);
  const rank = (s: string) => (order.includes(s) ? order.indexOf(s) : order.length);
  return [...bySeries.values()]
    .map((s) => ({ ...s, sizes: s.sizes.sort((a, b) => a.cpus - b.cpus || a.memoryBytes - b.memoryBytes || Number(a.namespaced) - Number(b.namespaced) || a.name.localeCompare(b.name)) }))
    .sort((a, b) => rank(a.series) - rank(b.series) || a.series.localeCompare(b.series));
}

/** A preference's label in a picker: its display name annotation, else its name. */
export function preferenceLabel(p: Preference): string {
  const display = p.metadata.annotations?.['openshift.io/display-name'];
  return display ? `${display} (${p.metadata.name ?? ''})` : (p.metadata.name ?? '');
}
