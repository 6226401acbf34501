'use client';
/** The VM list: live, searchable, filterable, sortable, multi-select, virtualized (1000s of rows). */
import Link from 'next/link';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { buildVMRows, filterVMRows, sortVMRows, type VMSortKey } from '@/lib/console/vm-row';
import { formatAge, formatBytes } from '@/lib/console/format';
import { adviseOnFailure } from '@/lib/console/api-status';
import { useVMIs, useVMs } from '@/components/live/useCluster';
import { EmptyState } from '@/components/ui/EmptyState';
import { useNow } from '@/components/ui/useNow';
import { BulkBar } from './BulkBar';
import { StatusBadge } from './StatusBadge';
import { VMActions } from './VMActions';
import { useInstancetypeSizes } from './useInstancetypeSizes';

const COLS = '2rem minmax(12rem,2fr) 8rem minmax(10rem,2fr) 7rem 8rem 4rem 6rem 4rem 14rem';
const HEADERS: [VMSortKey | undefined, string][] = [
  ['name', 'Name'], ['namespace', 'Namespace'], ['status', 'Status'], ['node', 'Node'], ['ip', 'IP'], ['cpus', 'CPU'], ['memoryBytes', 'Memory'], ['created', 'Age'], [undefined, 'Actions'],
];
const ROW_PX = 44;

function Filters({ values, set, options }: { values: Record<string, string>; set: (k: string, v: string) => void; options: Record<string, string[]> }) {
  const sel = (k: string, label: string) => (
    <select aria-label={label} value={values[k] ?? ''} onChange={(e) => set(k, e.target.value)} className="rounded-md border border-slate-300 bg-transparent px-2 py-1.5 text-sm dark:border-slate-700">
      <option value="">All {label.toLowerCase()}s</option>
      {options[k].map((o) => <option key={o} value={o}>{o}</option>)}
    </select>
  );
  return (
    <div className="flex flex-wrap items-center gap-2">
      <input type="search" placeholder="Search name, IP, node… ( / )" aria-label="Search VMs" value={values.q ?? ''} onChange={(e) => set('q', e.target.value)}
        id="vm-search" className="w-72 rounded-md border border-slate-300 bg-transparent px-3 py-1.5 text-sm dark:border-slate-700" />
      {sel('ns', 'Namespace')}{sel('status', 'Status')}{sel('node', 'Node')}
    </div>
  );
}

export function VMTable() {
  const { items: vms, loaded, error } = useVMs();
  const { items: vmis } = useVMIs();
  const now = useNow();
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const sort = (params.get('sort') ?? 'name') as VMSortKey;
  const dir = params.get('dir') === 'desc' ? 'desc' : 'asc';
  const values = Object.fromEntries(['q', 'ns', 'status', 'node'].map((k) => [k, params.get(k) ?? '']));
  const set = (k: string, v: string) => {
    const p = new URLSearchParams(params);
    if (v) p.set(k, v); else p.delete(k);
    router.replace(`${pathname}?${p}`, { scroll: false });
  };
  const sizes = useInstancetypeSizes();
  const all = useMemo(() => buildVMRows(vms, vmis, new Date(now), sizes), [vms, vmis, now, sizes]);
  const rows = useMemo(() => sortVMRows(filterVMRows(all, { search: values.q, namespace: values.ns, status: values.status, node: values.node }), sort, dir),
    [all, values.q, values.ns, values.status, values.node, sort, dir]);
  const options = useMemo(() => ({
    ns: [...new Set(all.map((r) => r.namespace))].sort(), status: [...new Set(all.map((r) => r.status))].sort(), node: [...new Set(all.map((r) => r.node).filter(Boolean))].sort(),
  }), [all]);
  const scroller = useRef<HTMLDivElement>(null);
  const virt = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_PX, overscan: 12 });
  const selectedRows = all.filter((r) => selected.has(r.key));
  const toggle = (key: string) => setSelected((s) => { const n = new Set(s); if (n.has(key)) n.delete(key); else n.add(key); return n; });
  const allShownSelected = rows.length > 0 && rows.every((r) => selected.has(r.key));

  if (error) return <EmptyState title="Cannot list virtual machines"><p role="alert">{error.message}{error.code ? ` (HTTP ${error.code})` : ''}</p><p className="mt-1">{adviseOnFailure(error.code)}</p></EmptyState>;
  return (
    <div className="flex flex-col gap-3">
      <Filters values={values} set={set} options={options} />
      <BulkBar rows={selectedRows} onDone={() => setSelected(new Set())} />
      <div role="table" aria-label="Virtual machines" aria-rowcount={rows.length} className="overflow-hidden rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <div role="row" className="grid items-center border-b border-slate-200 px-3 py-2 text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400 dark:border-slate-800" style={{ gridTemplateColumns: COLS }}>
          <input type="checkbox" aria-label="Select all shown" checked={allShownSelected} onChange={() => setSelected(allShownSelected ? new Set() : new Set(rows.map((r) => r.key)))} />
          {HEADERS.map(([k, label]) => (
            <span role="columnheader" key={label} aria-sort={k === sort ? (dir === 'asc' ? 'ascending' : 'descending') : undefined}>
              {k ? <button type="button" className="uppercase hover:text-slate-900 dark:hover:text-white" onClick={() => { set('sort', k); set('dir', k === sort && dir === 'asc' ? 'desc' : 'asc'); }}>{label}{k === sort ? (dir === 'asc' ? ' ↑' : ' ↓') : ''}</button> : label}
            </span>
          ))}
        </div>
        {loaded && rows.length === 0 && (
          <div className="p-6">
            <EmptyState title={all.length ? 'No VM matches these filters' : 'No virtual machines yet'}>
              {all.length ? 'Clear the search or the filters.' : <Link className="text-indigo-600 dark:text-indigo-400 underline" href="/vms/new">Create your first VM</Link>}
            </EmptyState>
          </div>
        )}
        {!loaded && <div className="p-6 text-sm text-slate-500 dark:text-slate-400">Loading…</div>}
        <div ref={scroller} className="overflow-auto" style={{ height: `min(calc(100vh - 15rem), ${Math.max(rows.length, 1) * ROW_PX + 2}px)` }}>
          <div style={{ height: virt.getTotalSize(), position: 'relative' }}>
            {virt.getVirtualItems().map((v) => {
              const r = rows[v.index];
              return (
                <div role="row" key={r.key} data-vm={r.name} data-cpus={r.cpus} data-status={r.status} className="absolute left-0 right-0 grid items-center border-b border-slate-100 px-3 text-sm hover:bg-slate-50 dark:border-slate-800/60 dark:hover:bg-slate-800/40"
                  style={{ gridTemplateColumns: COLS, height: ROW_PX, transform: `translateY(${v.start}px)` }}>
                  <input type="checkbox" aria-label={`Select ${r.name}`} checked={selected.has(r.key)} onChange={() => toggle(r.key)} />
                  <Link href={`/vms/${r.namespace}/${r.name}`} className="truncate font-medium text-indigo-700 hover:underline dark:text-indigo-300">{r.name}</Link>
                  <span className="truncate text-slate-500 dark:text-slate-400">{r.namespace}</span>
                  <span className="flex min-w-0 items-center gap-2"><StatusBadge status={r.status} title={r.reason} />{r.reason && <span className="truncate text-xs text-slate-500 dark:text-slate-400" title={r.reason}>{r.reason}</span>}</span>
                  <span className="truncate">{r.node || '—'}</span>
                  <span className="truncate font-mono text-xs">{r.ip || '—'}</span>
                  <span>{r.cpus}</span>
                  <span>{formatBytes(r.memoryBytes)}</span>
                  <span className="text-slate-500 dark:text-slate-400">{formatAge(r.created, now)}</span>
                  <VMActions vm={r.vm} vmi={r.vmi} compact />
                </div>
              );
            })}
          </div>
        </div>
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">{rows.length} of {all.length} VMs · live</p>
    </div>
  );
}
