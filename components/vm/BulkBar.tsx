'use client';
/**
 * Bulk start/stop/restart/delete over the selection: confirm, run each, report per VM, clear the
 * selection. Each VM counts only where the user's rights in its namespace allow the action.
 */
import { useState } from 'react';
import { allowedActions, type VMAction } from '@/lib/console/vm-actions';
import type { VMRow } from '@/lib/console/vm-row';
import { Button } from '@/components/ui/Button';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { useToast } from '@/components/ui/Toasts';
import { kubeFetch } from '@/components/live/api-fetch';
import { actionRequest } from '@/lib/console/vm-actions';
import { useManyNamespacePermissions } from '@/components/live/useNamespacePermissions';

const BULK: VMAction[] = ['start', 'stop', 'restart', 'delete'];
const PARALLEL = 8;

export function BulkBar({ rows, onDone }: { rows: VMRow[]; onDone: () => void }) {
  const [pending, setPending] = useState<VMAction>();
  const toast = useToast();
  const permissions = useManyNamespacePermissions([...new Set(rows.map((r) => r.namespace))]);
  if (rows.length === 0) return null;
  const eligible = (a: VMAction) => rows.filter((r) => {
    const p = permissions.get(r.namespace);
    return !!p && allowedActions(r.vm, r.vmi, { permissions: p }).includes(a);
  });
  const run = async (a: VMAction) => {
    const targets = eligible(a);
    onDone(); // the selection is cleared at once: a second click cannot hit the same VMs by accident
    const failures: string[] = [];
    for (let i = 0; i < targets.length; i += PARALLEL) {
      await Promise.all(targets.slice(i, i + PARALLEL).map(async (r) => {
        const req = actionRequest(a, r.namespace, r.name);
        try { await kubeFetch(req.method, req.path, req.body); } catch (err) { failures.push(`${r.name}: ${(err as Error).message}`); }
      }));
    }
    const ok = targets.length - failures.length;
    toast(failures.length ? 'error' : 'success', `${a}: ${ok} of ${targets.length} accepted${failures.length ? ` — ${failures.slice(0, 3).join('; ')}${failures.length > 3 ? '…' : ''}` : ''}`);
  };
  return (
    <div className="flex items-center gap-2 rounded-lg bg-indigo-50 px-3 py-2 text-sm dark:bg-indigo-950/50" data-testid="bulk-bar">
      <span className="font-medium">{rows.length} selected</span>
      {BULK.map((a) => {
        const n = eligible(a).length;
        return <Button key={a} variant={a === 'delete' ? 'danger' : 'secondary'} disabled={n === 0} onClick={() => setPending(a)} title={`${n} of the selected can ${a}`}>{a[0].toUpperCase() + a.slice(1)} ({n})</Button>;
      })}
      <Button variant="ghost" onClick={onDone}>Clear</Button>
      <ConfirmDialog open={!!pending} title={`${pending} ${pending ? eligible(pending).length : 0} VMs?`}
        message={`This will ${pending} ${pending ? eligible(pending).map((r) => r.name).slice(0, 10).join(', ') : ''}${pending && eligible(pending).length > 10 ? '…' : ''}.`}
        confirmLabel={pending ?? ''} onCancel={() => setPending(undefined)}
        onConfirm={() => { const a = pending!; setPending(undefined); void run(a); }} />
    </div>
  );
}
