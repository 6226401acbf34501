'use client';
/**
 * Settings: the cluster's KubeVirt CR (kubevirt/kubevirt) as a form — feature gates, migration
 * limits, eviction strategy, the launcher Pods' memory overhead ratio — with its status. Saving sends a merge patch of what changed; the
 * server's refusal (admission, schema) is shown with its message. Checked here first with the same
 * rules the server applies.
 */
import { useEffect, useState } from 'react';
import type { KubeVirt } from '@/lib/kubevirt/kubevirt-cr';
import { KUBEVIRT_CR_NAME, KUBEVIRT_CR_NAMESPACE } from '@/lib/kubevirt/kubevirt-cr';
import { KubeVirtResource, resourcePath } from '@/lib/kubevirt/resources';
import { SETTINGS_DEFAULTS, settingsErrors, settingsFormOf, settingsPatch, type SettingsForm } from '@/lib/console/kubevirt-settings';
import { kubeFetch } from '@/components/live/api-fetch';
import { useResourceList } from '@/components/live/useResourceList';
import { Button } from '@/components/ui/Button';
import { useToast } from '@/components/ui/Toasts';

const input = 'mt-1 w-full rounded-md border border-slate-300 bg-transparent px-3 py-1.5 text-sm dark:border-slate-700';
const CR_PATH = resourcePath(KubeVirtResource, { namespace: KUBEVIRT_CR_NAMESPACE, name: KUBEVIRT_CR_NAME });

function Text({ label, value, onChange, placeholder, error }: { label: string; value: string; onChange: (v: string) => void; placeholder?: string; error?: string }) {
  return (
    <label className="block text-sm font-medium">
      {label}
      <input className={input} value={value} placeholder={placeholder} onChange={(e) => onChange(e.target.value)} aria-invalid={!!error} />
      {error && <span role="alert" className="mt-0.5 block text-xs font-normal text-red-600 dark:text-red-400">{error}</span>}
    </label>
  );
}

function Status({ cr }: { cr: KubeVirt }) {
  const s = cr.status;
  return (
    <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="kubevirt-status">
      Phase <strong>{s?.phase ?? 'unknown'}</strong> · version {s?.observedKubeVirtVersion ?? '—'} ·{' '}
      {(s?.conditions ?? []).map((c) => `${c.type}=${c.status}`).join(', ') || 'no conditions'}
    </p>
  );
}

export function KubeVirtSettings() {
  const list = useResourceList<KubeVirt>(resourcePath(KubeVirtResource, { namespace: KUBEVIRT_CR_NAMESPACE }));
  const cr = list.items.find((k) => k.metadata.name === KUBEVIRT_CR_NAME) ?? list.items[0];
  const [form, setForm] = useState<SettingsForm>(settingsFormOf(undefined));
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const toast = useToast();
  useEffect(() => { if (!dirty) setForm(settingsFormOf(cr)); }, [cr, dirty]);
  if (list.error) return <p role="alert" className="text-sm text-red-600">{list.error.message}</p>;
  if (!list.loaded) return <p className="text-sm text-slate-500">Loading…</p>;
  if (!cr) return <p className="text-sm">No KubeVirt CR in namespace {KUBEVIRT_CR_NAMESPACE}: the cluster runs with KubeVirt&apos;s defaults.</p>;
  const errors = settingsErrors(form);
  const set = <K extends keyof SettingsForm>(k: K) => (v: SettingsForm[K]) => { setDirty(true); setForm({ ...form, [k]: v }); };
  const patch = settingsPatch(cr, form);
  const save = async () => {
    if (!patch) return;
    setSaving(true);
    try {
      await kubeFetch('PATCH', CR_PATH, patch, 'application/merge-patch+json');
      toast('success', 'KubeVirt configuration saved');
      setDirty(false);
    } catch (err) {
      toast('error', (err as Error).message);
    } finally {
      setSaving(false);
    }
  };
  const mig = (k: Exclude<keyof typeof SETTINGS_DEFAULTS, 'additionalGuestMemoryOverheadRatio'>) => ({ value: form[k], onChange: set(k), placeholder: SETTINGS_DEFAULTS[k], error: errors[`migrations.${k}`] });
  return (
    <form className="flex max-w-2xl flex-col gap-4" onSubmit={(e) => { e.preventDefault(); void save(); }}>
      <Status cr={cr} />
      <fieldset className="flex flex-col gap-3 rounded-md border border-slate-200 p-4 dark:border-slate-800">
        <legend className="px-1 text-sm font-semibold">Feature gates</legend>
        <Text label="Enabled feature gates (comma separated)" value={form.featureGates} onChange={set('featureGates')} placeholder="e.g. HostDisk" error={errors.developerConfiguration} />
      </fieldset>
      <fieldset className="grid grid-cols-2 gap-3 rounded-md border border-slate-200 p-4 dark:border-slate-800">
        <legend className="px-1 text-sm font-semibold">Live migration</legend>
        <Text label="Parallel migrations per cluster" {...mig('parallelMigrationsPerCluster')} />
        <Text label="Parallel outbound migrations per node" {...mig('parallelOutboundMigrationsPerNode')} />
        <Text label="Bandwidth per migration" {...mig('bandwidthPerMigration')} />
        <Text label="Completion timeout per GiB (s)" {...mig('completionTimeoutPerGiB')} />
        <Text label="Progress timeout (s)" {...mig('progressTimeout')} />
        <div className="flex flex-col justify-end gap-1 text-sm">
          <label><input type="checkbox" checked={form.allowPostCopy} onChange={(e) => set('allowPostCopy')(e.target.checked)} /> Allow post-copy</label>
          <label><input type="checkbox" checked={form.allowAutoConverge} onChange={(e) => set('allowAutoConverge')(e.target.checked)} /> Allow auto-converge</label>
        </div>
      </fieldset>
      <label className="block text-sm font-medium">
        Default eviction strategy
        <select className={input} value={form.evictionStrategy} onChange={(e) => set('evictionStrategy')(e.target.value)}>
          <option value="">(none set)</option>
          {['None', 'LiveMigrate', 'LiveMigrateIfPossible', 'External'].map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
      </label>
      <Text
        label="Guest memory overhead ratio"
        value={form.additionalGuestMemoryOverheadRatio}
        onChange={set('additionalGuestMemoryOverheadRatio')}
        placeholder={SETTINGS_DEFAULTS.additionalGuestMemoryOverheadRatio}
        error={errors.additionalGuestMemoryOverheadRatio}
      />
      <div className="flex gap-2">
        <Button type="submit" variant="primary" disabled={!patch || saving || Object.keys(errors).length > 0}>{saving ? 'Saving…' : 'Save'}</Button>
        <Button onClick={() => { setDirty(false); setForm(settingsFormOf(cr)); }} disabled={!dirty}>Reset</Button>
      </div>
    </form>
  );
}
