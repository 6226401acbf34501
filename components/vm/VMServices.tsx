'use client';
/** The VM page's Services: those that select its launcher Pod, and an Expose form (like `virtctl expose vm`). */
import { useState, type FormEvent } from 'react';
import type { KubeObject, VirtualMachine, VirtualMachineInstance } from '@/lib/kubevirt';
import { ExposeError, renderService } from '@/lib/kubevirt/expose-service';
import { resourcePath, ServiceResource } from '@/lib/kubevirt/resources';
import { launcherLabels, serviceRows, type ServiceLike } from '@/lib/console/vm-services';
import { useResourceList } from '@/components/live/useResourceList';
import { kubeFetch } from '@/components/live/api-fetch';
import { Button } from '@/components/ui/Button';

const input = 'rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-900';

function ExposeForm({ vm, onDone }: { vm: VirtualMachine; onDone: () => void }) {
  const name = vm.metadata.name ?? '';
  const [form, setForm] = useState({ name: `${name}-svc`, port: '22', targetPort: '', type: 'ClusterIP' });
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const namespace = vm.metadata.namespace ?? 'default';
      const owner = { kind: 'VirtualMachine' as const, name, uid: vm.metadata.uid ?? '', spec: vm.spec.template.spec };
      const port = Number(form.port);
      if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ExposeError('port must be a number from 1 to 65535');
      const body = renderService(owner, namespace, { name: form.name, port, targetPort: form.targetPort || undefined, protocol: 'TCP', type: form.type });
      await kubeFetch('POST', resourcePath(ServiceResource, { namespace }), body);
      onDone();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-2 text-sm" aria-label="Expose">
      <label className="flex flex-col gap-1">Service name<input className={input} value={form.name} onChange={set('name')} required /></label>
      <label className="flex flex-col gap-1">Port<input className={`${input} w-20`} inputMode="numeric" value={form.port} onChange={set('port')} required /></label>
      <label className="flex flex-col gap-1">Guest port<input className={`${input} w-20`} inputMode="numeric" placeholder="same" value={form.targetPort} onChange={set('targetPort')} /></label>
      <label className="flex flex-col gap-1">Type
        <select className={input} value={form.type} onChange={set('type')}><option>ClusterIP</option><option>NodePort</option></select>
      </label>
      <Button type="submit" variant="primary" disabled={busy}>Create Service</Button>
      <Button onClick={onDone}>Cancel</Button>
      {error && <p role="alert" className="w-full text-red-600 dark:text-red-400">{error}</p>}
    </form>
  );
}

export function VMServices({ vm, vmi }: { vm: VirtualMachine; vmi?: VirtualMachineInstance }) {
  const namespace = vm.metadata.namespace ?? 'default';
  const services = useResourceList<KubeObject & ServiceLike>(resourcePath(ServiceResource, { namespace }));
  const rows = serviceRows(services.items, launcherLabels(vm, vmi));
  const [exposing, setExposing] = useState(false);
  const cell = 'py-1 pr-4';
  return (
    <div className="mt-6">
      <div className="mb-2 flex items-center gap-3">
        <h3 className="text-sm font-semibold">Services</h3>
        {!exposing && <Button onClick={() => setExposing(true)}>Expose…</Button>}
      </div>
      {rows.length ? (
        <table className="w-full text-sm" data-testid="services-table"><thead className="text-left text-xs uppercase text-slate-500 dark:text-slate-400"><tr><th>Name</th><th>Type</th><th>Cluster IP</th><th>Ports</th></tr></thead>
          <tbody>{rows.map((r) => (
            <tr key={r.name} className="border-t border-slate-100 dark:border-slate-800"><td className={cell}>{r.name}</td><td className={cell}>{r.type}</td><td className={`${cell} font-mono text-xs`}>{r.clusterIP}</td><td className={cell}>{r.ports}</td></tr>
          ))}</tbody></table>
      ) : <p className="text-xs text-slate-500 dark:text-slate-400">No Service selects this VM. Expose a guest port to reach it by a stable address and DNS name.</p>}
      {exposing && <ExposeForm vm={vm} onDone={() => setExposing(false)} />}
    </div>
  );
}
