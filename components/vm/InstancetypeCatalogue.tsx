'use client';
/**
 * The create form's instance-type catalogue (OpenShift's "create from InstanceType"): series as
 * tabs, each size as a card with its CPU and memory in words, and a preference picker. The choice
 * is a pair of names; the form posts them as spec.instancetype / spec.preference.
 */
import { useMemo } from 'react';
import { ClusterInstancetypeResource, ClusterPreferenceResource, resourcePath } from '@/lib/kubevirt/resources';
import type { Instancetype, Preference } from '@/lib/kubevirt';
import { buildCatalogue, preferenceLabel } from '@/lib/console/instancetype-catalogue';
import { useResourceList } from '@/components/live/useResourceList';

const input = 'mt-1 w-full rounded-md border border-slate-300 bg-transparent px-3 py-1.5 text-sm dark:border-slate-700';

export interface CatalogueProps {
  instancetype: string;
  preference: string;
  error?: string;
  onInstancetype: (name: string) => void;
  onPreference: (name: string) => void;
}

export function InstancetypeCatalogue({ instancetype, preference, error, onInstancetype, onPreference }: CatalogueProps) {
  const types = useResourceList<Instancetype>(resourcePath(ClusterInstancetypeResource, {}));
  const prefs = useResourceList<Preference>(resourcePath(ClusterPreferenceResource, {}));
  const catalogue = useMemo(() => buildCatalogue(types.items), [types.items]);
  const chosenSeries = catalogue.find((s) => s.sizes.some((z) => z.name === instancetype)) ?? catalogue[0];
  const chosen = chosenSeries?.sizes.find((z) => z.name === instancetype);

  if (types.loaded && !catalogue.length) {
    return <p className="text-sm text-slate-500 dark:text-slate-400">This cluster has no cluster instance types (VirtualMachineClusterInstancetype). <code>kv up</code> installs the common ones; pick Custom meanwhile.</p>;
  }
  return (
    <div className="flex flex-col gap-3" data-testid="instancetype-catalogue">
      <div className="flex flex-wrap gap-1" role="tablist" aria-label="Series">
        {catalogue.map((s) => (
          <button key={s.series} type="button" role="tab" aria-selected={s === chosenSeries} data-testid={`series-${s.series}`}
            className={`rounded-md border px-3 py-1 text-sm ${s === chosenSeries ? 'border-indigo-500 bg-indigo-50 text-indigo-900 dark:bg-indigo-950/50 dark:text-indigo-100' : 'border-slate-300 dark:border-slate-700'}`}
            onClick={() => onInstancetype(s.sizes[0]?.name ?? '')}>
            <span className="font-medium">{s.series}</span> <span className={`text-xs ${s === chosenSeries ? 'text-indigo-800 dark:text-indigo-200' : 'text-slate-500 dark:text-slate-400'}`}>{s.title}</span>
          </button>
        ))}
      </div>
      {chosenSeries?.description && <p className="text-xs text-slate-500 dark:text-slate-400">{chosenSeries.description}</p>}
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4" role="radiogroup" aria-label="Size">
        {chosenSeries?.sizes.map((z) => (
          <button key={z.name} type="button" role="radio" aria-checked={z.name === instancetype} data-testid={`size-${z.name}`}
            className={`rounded-md border p-2 text-left text-sm ${z.name === instancetype ? 'border-indigo-500 ring-1 ring-indigo-500' : 'border-slate-300 dark:border-slate-700'}`}
            onClick={() => onInstancetype(z.name)}>
            <span className="block font-medium">{z.size}</span>
            <span className="block text-xs text-slate-500 dark:text-slate-400">{z.words}</span>
          </button>
        ))}
      </div>
      <p className="text-sm" data-testid="instancetype-choice">
        {chosen ? <><span className="font-mono">{chosen.name}</span>: {chosen.words}</> : 'No size picked yet.'}
      </p>
      {error && <span role="alert" className="block text-xs text-red-600 dark:text-red-400">{error}</span>}
      <label className="block text-sm font-medium">Preference
        <select className={input} name="preference" value={preference} onChange={(e) => onPreference(e.target.value)}>
          <option value="">None</option>
          {prefs.items.map((p) => <option key={p.metadata.name} value={p.metadata.name}>{preferenceLabel(p)}</option>)}
        </select>
        <span className="mt-0.5 block text-xs font-normal text-slate-500 dark:text-slate-400">Device defaults (disk and NIC models…) applied where the VM says nothing.</span>
      </label>
    </div>
  );
}
