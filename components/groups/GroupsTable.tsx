'use client';
import { useState } from 'react';
import { resourcePath, VirtualMachineInstanceReplicaSetResource, VirtualMachinePoolResource } from '@/lib/kubevirt/resources';
import type { VirtualMachineInstanceReplicaSet, VirtualMachinePool } from '@/lib/kubevirt';
import { groupRows, scaleRequest, type GroupRow } from '@/lib/console/vm-groups';
import { useResourceList } from '@/components/live/useResourceList';
import { useManyNamespacePermissions } from '@/components/live/useNamespacePermissions';
import { kubeFetch } from '@/components/live/api-fetch';
import { Button } from '@/components/ui/Button';
import { EmptyState } from '@/components/ui/EmptyState';
import { useToast } from '@/components/ui/Toasts';

/** Replica sets and pools, live, with − / + buttons that scale them through their scale subresource (where the user may, per namespace). */
export function GroupsTable() {
  const sets = useResourceList<VirtualMachineInstanceReplicaSet>(resourcePath(VirtualMachineInstanceReplicaSetResource));
  const pools = useResourceList<VirtualMachinePool>(resourcePath(VirtualMachinePoolResource));
  const toast = useToast();
  const [busy, setBusy] = useState<string>();
  const rows = groupRows(sets.items, pools.items);
  const permissions = useManyNamespacePermissions([...new Set(rows.map((r) => r.namespace))]);
  const mayScale = (r: GroupRow) => { const p = permissions.get(r.namespace); return !!p && (r.kind === 'VirtualMachinePool' ? p.scalePool : p.scaleReplicaSet); };

  async function scale(r: GroupRow, delta: number) {
    const body = scaleRequest(r, delta);
    if (!body) return;
    setBusy(r.key);
    try {
      await kubeFetch('PATCH', r.scalePath, body, 'application/merge-patch+json');
      toast('success', `${r.name} scaled to ${body.spec.replicas}`);
    } catch (err) {
      toast('error', `${r.name}: ${(err as Error).message}`);
    } finally {
      setBusy(undefined);
    }
  }

  if (sets.loaded && pools.loaded && !rows.length) {
    return <EmptyState title="No VM groups">Create a VirtualMachineInstanceReplicaSet or a VirtualMachinePool (docs/vm-groups.md); they appear here with scale controls.</EmptyState>;
  }
  return (
    <table className="w-full text-left text-sm">
      <thead className="text-xs uppercase text-slate-500 dark:text-slate-400">
        <tr><th className="py-2">Name</th><th>Kind</th><th>Desired</th><th>Current</th><th>Ready</th><th>Scale</th></tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} className="border-t border-slate-200 dark:border-slate-800">
            <td className="py-2">
              <span className="font-medium">{r.namespace}/{r.name}</span>
              {r.paused && <span className="ml-2 rounded bg-amber-100 px-1.5 text-xs text-amber-900 dark:bg-amber-900 dark:text-amber-100">paused</span>}
              {r.failure && <p className="text-xs text-red-700 dark:text-red-300">{r.failure}</p>}
            </td>
            <td>{r.label}</td>
            <td>{r.desired}</td>
            <td>{r.current}</td>
            <td>{r.ready}</td>
            <td className="flex gap-1 py-2">
              <Button aria-label={`scale ${r.name} down`} disabled={!mayScale(r) || busy === r.key || r.desired === 0} onClick={() => void scale(r, -1)}>−</Button>
              <Button aria-label={`scale ${r.name} up`} disabled={!mayScale(r) || busy === r.key} onClick={() => void scale(r, 1)}>+</Button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
