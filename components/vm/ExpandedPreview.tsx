'use client';
/** The draft VM as it will run: virt-api's expansion with the instance type and preference applied, or its refusal. */
import { stringify } from 'yaml';
import type { VirtualMachine } from '@/lib/kubevirt';
import { useExpandedVM } from './useExpandedVM';
import { YamlEditor } from './YamlEditor';

export function ExpandedPreview({ draft }: { draft: VirtualMachine | undefined }) {
  const expanded = useExpandedVM(draft);
  if (expanded.state === 'none') return null;
  return (
    <div className="mt-3" data-testid="expanded-preview" data-state={expanded.state}>
      <p className="mb-1 text-sm font-medium">As it will run <span className="text-xs font-normal text-slate-500 dark:text-slate-400">(expanded by the cluster: expand-vm-spec)</span></p>
      {expanded.state === 'error' && <p role="alert" data-testid="expand-error" className="mb-1 rounded-md border border-red-300 bg-red-50 p-2 text-xs text-red-800 dark:border-red-800 dark:bg-red-950/40 dark:text-red-200">{expanded.message}</p>}
      {expanded.state === 'loading' && <p className="text-xs text-slate-500 dark:text-slate-400">Expanding…</p>}
      {expanded.state === 'ok' && <YamlEditor value={stringify(expanded.vm)} readOnly height="20rem" />}
    </div>
  );
}
