'use client';
/** ⌘K / Ctrl+K: jump to a page or a VM by typing. */
import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useState } from 'react';
import { useVMs } from '@/components/live/useCluster';

const PAGES = [
  { label: 'Overview', href: '/' }, { label: 'Virtual machines', href: '/vms' }, { label: 'Create a VM', href: '/vms/new' },
  { label: 'VM groups', href: '/groups' }, { label: 'Nodes', href: '/nodes' }, { label: 'Storage', href: '/storage' }, { label: 'Migrations', href: '/migrations' },
];

export function CommandPalette() {
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const [sel, setSel] = useState(0);
  const router = useRouter();
  const { items: vms } = useVMs();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.metaKey || e.ctrlKey) && e.key.toLowerCase() === 'k') { e.preventDefault(); setOpen((o) => !o); setQ(''); setSel(0); }
      if (e.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const results = useMemo(() => {
    const all = [...PAGES, ...vms.map((vm) => ({ label: `VM ${vm.metadata.namespace}/${vm.metadata.name}`, href: `/vms/${vm.metadata.namespace}/${vm.metadata.name}` }))];
    const needle = q.toLowerCase();
    return all.filter((r) => r.label.toLowerCase().includes(needle)).slice(0, 12);
  }, [q, vms]);
  if (!open) return null;
  const go = (href: string) => { setOpen(false); router.push(href); };
  return (
    <div className="fixed inset-0 z-40 flex items-start justify-center bg-slate-950/40 pt-24" onClick={() => setOpen(false)}>
      <div role="dialog" aria-modal="true" aria-label="Go to" className="w-full max-w-lg overflow-hidden rounded-xl border border-slate-200 bg-white shadow-2xl dark:border-slate-700 dark:bg-slate-900" onClick={(e) => e.stopPropagation()}>
        <input autoFocus value={q} placeholder="Go to a page or a VM… (↑ ↓ to choose, Enter to go, Esc to close)" aria-label="Command palette"
          role="combobox" aria-expanded="true" aria-controls="palette-results" aria-activedescendant={results[sel] ? `palette-${sel}` : undefined}
          onChange={(e) => { setQ(e.target.value); setSel(0); }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') { e.preventDefault(); setSel((s) => Math.min(s + 1, results.length - 1)); }
            if (e.key === 'ArrowUp') { e.preventDefault(); setSel((s) => Math.max(s - 1, 0)); }
            if (e.key === 'Enter' && results[sel]) go(results[sel].href);
          }}
          className="w-full border-b border-slate-200 bg-transparent px-4 py-3 outline-none dark:border-slate-700" />
        <ul id="palette-results" role="listbox" aria-label="Results" className="max-h-80 overflow-auto py-1">
          {results.map((r, i) => (
            <li key={r.href} id={`palette-${i}`} role="option" aria-selected={i === sel}>
              <button type="button" tabIndex={-1} onClick={() => go(r.href)} onMouseEnter={() => setSel(i)} className={`block w-full px-4 py-2 text-left text-sm ${i === sel ? 'bg-indigo-50 dark:bg-indigo-950' : ''}`}>{r.label}</button>
            </li>
          ))}
          {results.length === 0 && <li className="px-4 py-2 text-sm text-slate-500 dark:text-slate-400">Nothing matches.</li>}
        </ul>
      </div>
    </div>
  );
}
