'use client';
/**
 * The create form's instance-type catalogue (OpenShift's "create from InstanceType"): series as
 * tabs, each size as a card with its CPU and memory in words, and a preference picker. The choice
 * is a pair of names; the form posts them as spec.instancetype / spec.preference. The VM's
 * namespace's own VirtualMachineInstancetypes and VirtualMachinePreferences are offered beside the
 * cluster ones, labelled with the namespace; the VM then names their namespaced kinds.
 */
import { useMemo } from 'react';
import { ClusterInstancetypeResource, ClusterPreferenceResource, InstancetypeResource, PreferenceResource, resourcePath } from '@/lib/kubevirt/resources';
import type { Instancetype, Preference } from '@/lib/kubevirt';
import { buildCatalogue, preferenceLabel } from '@/lib/console/instancetype-catalogue';
import { encodePreferenceChoice } from '@/lib/console/instancetype-choice';
import { useResourceList } from '@/components/live/useResourceList';

const input = 'mt-1 w-full rounded-md border border-slate-300 bg-transparent px-3 py-1.5 text-sm dark:border-slate-700';

const NAMESPACE_RE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export interface CatalogueProps {
  /** the VM's namespace: its own instance types and preferences are offered beside the cluster ones */
  namespace: string;
  instancetype: string;
  preference: string;
  error?: string;
  onInstancetype: (name: string) => void;
  onPreference: (name: string) => void;
}

export function InstancetypeCatalogue({ namespace, instancetype, preference, error, onInstancetype, onPreference }: CatalogueProps) {
  const ns = NAMESPACE_RE.test(namespace) ? namespace : undefined;
  const types = useResourceList<Instancetype>(resourcePath(ClusterInstancetypeResource, {}));
  const prefs = useResourceList<Preference>(resourcePath(ClusterPreferenceResource, {}));
  const ownTypes = useResourceList<Instancetype>(ns ? resourcePath(InstancetypeResource, { namespace: ns }) : undefined);
  const ownPrefs = useResourceList<Preference>(ns ? resourcePath(PreferenceResource, { namespace: ns }) : undefined);
  const catalogue = useMemo(() => buildCatalogue(types.items, ns ? ownTypes.items : []), [types.items, ownTypes.items, ns]);
  const chosenSeries = catalogue.find((s) => s.sizes.some((z) => z.choice === instancetype)) ?? catalogue[0];
  const chosen = chosenSeries?.sizes.find((z) => z.choice === instancetype);

  if (types.loaded && !catalogue.length) {
    return <p className="text-sm text-slate-500 dark:text-slate-400">This cluster has no cluster instance types (VirtualMachineClusterInstancetype) and namespace {namespace} has none of its own. <code>kv up</code> installs the common ones; pick Custom meanwhile.</p>;
  }
  return (
    <div className="flex flex-col gap-3" data-testid="instancetype-catalogue">
      <div className="flex flex-wrap gap-1" role="tablist" aria-label="Series">
        {catalogue.map((s) => (
          <button key={s.series} type="button" role="tab" aria-selected={s === chosenSeries} data-testid={`series-${s.series}`}
            className={`rounded-md border px-3 py-1 text-sm ${s === chosenSeries ? 'border-indigo-500 bg-indigo-50 text-indigo-900 dark:bg-indigo-950/50 dark:text-indigo-100' : 'border-slate-300 dark:border-slate-700'}`}
            onClick={() => onInstancetype(s.sizes[0]?.choice ?? '')}>
            <span className="font-medium">{s.series}</span> <span className={`text-xs ${s === chosenSeries ? 'text-indigo-800 dark:text-indigo-200' : 'text-slate-500 dark:text-slate-400'}`}>{s.title}</span>
          </button>
        ))}
      </div>
      {chosenSeries?.description && <p className="text-xs text-slate-500 dark:text-slate-400">{chosenSeries.description}</p>}
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4" role="radiogroup" aria-label="Size">
        {chosenSeries?.sizes.map((z) => (
          <button key={z.choice} type="button" role="radio" aria-checked={z.choice === instancetype} data-testid={z.namespaced ? `size-ns-${z.name}` : `size-${z.name}`} data-scope={z.namespaced ? 'namespace' : 'cluster'}
            className={`rounded-md border p-2 text-left text-sm ${z.choice === instancetype ? 'border-indigo-500 ring-1 ring-indigo-500' : 'border-slate-300 dark:border-slate-700'}`}
            onClick={() => onInstancetype(z.choice)}>
            <span className="block font-medium">{z.size}{z.namespaced && <span className="ml-1 rounded bg-amber-100 px-1 text-[10px] font-normal text-amber-900 dark:bg-amber-900/40 dark:text-amber-100" data-testid="scope-label">namespace {ns}</span>}</span>
            <span className="block text-xs text-slate-500 dark:text-slate-400">{z.words}</span>
          </button>
        ))}
      </div>
      <p className="text-sm" data-testid="instancetype-choice">
        {chosen ? <><span className="font-mono">{chosen.name}</span>{chosen.namespaced ? ` (VirtualMachineInstancetype in ${ns})` : ''}: {chosen.words}</> : 'No size picked yet.'}
      </p>
      {error && <span role="alert" className="block text-xs text-red-600 dark:text-red-400">{error}</span>}
      <label className="block text-sm font-medium">Preference
        <select className={input} name="preference" value={preference} onChange={(e) => onPreference(e.target.value)}>
          <option value="">None</option>
          <optgroup label="Cluster preferences">
            {prefs.items.map((p) => <option key={p.metadata.name} value={p.metadata.name}>{preferenceLabel(p)}</option>)}
          </optgroup>
          {ns && ownPrefs.items.length > 0 && (
            <optgroup label={`Namespace ${ns}`}>
              {ownPrefs.items.map((p) => <option key={p.metadata.name} value={encodePreferenceChoice(p.metadata.name ?? '', true)}>{`${preferenceLabel(p)} — namespace ${ns}`}</option>)}
            </optgroup>
          )}
        </select>
        <span className="mt-0.5 block text-xs font-normal text-slate-500 dark:text-slate-400">Device defaults (disk and NIC models…) applied where the VM says nothing.</span>
      </label>
    </div>
  );
}
