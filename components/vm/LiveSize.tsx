'use client';
/** The VM page's Size panel: vCPUs and memory now and how far they go live; change them and see what came of it. */
import { resourcePath, VirtualMachineResource } from '@/lib/kubevirt/resources';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import type { VirtualMachine, VirtualMachineInstance } from '@/lib/kubevirt';
import type { ApiFailure } from '@/lib/console/api-status';
import { liveSizePatch, liveSizeView, type AppliedChange, type LiveSizeState } from '@/lib/console/live-size';
import { ApiError, kubeFetch } from '@/components/live/api-fetch';
import { Button } from '@/components/ui/Button';
import { Card } from '@/components/ui/EmptyState';
import { useToast } from '@/components/ui/Toasts';
import { ServerErrors } from './ServerErrors';

const input = 'mt-1 w-full rounded-md border border-slate-300 bg-transparent px-3 py-1.5 text-sm dark:border-slate-700';
const TONE: Record<LiveSizeState, string> = {
  stopped: 'text-slate-600 dark:text-slate-300',
  steady: 'text-slate-600 dark:text-slate-300',
  applied: 'text-emerald-700 dark:text-emerald-400',
  'in-progress': 'text-indigo-700 dark:text-indigo-300',
  restart: 'text-amber-700 dark:text-amber-400',
  failed: 'text-red-700 dark:text-red-400',
};

export function LiveSize({ vm, vmi, canWrite }: { vm: VirtualMachine; vmi?: VirtualMachineInstance; canWrite: boolean }) {
  const [applied, setApplied] = useState<{ uid?: string; change: AppliedChange }>();
  // what the user applied counts for the guest it was applied to, not for the next one after a restart
  const view = liveSizeView(vm, vmi, applied && applied.uid === vmi?.metadata.uid ? applied.change : undefined);
  const [sockets, setSockets] = useState(String(view.wantedSockets));
  const [memory, setMemory] = useState(view.wantedMemory ?? '');
  const [dirty, setDirty] = useState(false);
  const [failure, setFailure] = useState<ApiFailure>();
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  // the VM changed (here or elsewhere): show its values unless the user is typing; not on Apply
  // itself, which would flash the old values until the watch brings the patched VM
  const reset = () => { setSockets(String(view.wantedSockets)); setMemory(view.wantedMemory ?? ''); };
  useEffect(() => {
    if (dirtyRef.current) return;
    setSockets(String(view.wantedSockets));
    setMemory(view.wantedMemory ?? '');
  }, [view.wantedSockets, view.wantedMemory]);
  const { patch, error } = liveSizePatch(vm, { sockets, memory });
  const apply = async () => {
    if (!patch) return;
    setBusy(true);
    try {
      await kubeFetch('PATCH', resourcePath(VirtualMachineResource, { namespace: vm.metadata.namespace, name: vm.metadata.name }), patch, 'application/merge-patch+json');
      setFailure(undefined);
      setApplied({ uid: vmi?.metadata.uid, change: { sockets: Number(sockets), memory: memory.trim() || undefined } });
      setDirty(false);
      toast('success', `Size of ${vm.metadata.name} changed`);
    } catch (err) {
      setFailure(err instanceof ApiError ? err.failure : { code: 0, reason: '', message: (err as Error).message, causes: [] });
    } finally {
      setBusy(false);
    }
  };
  const edit = (set: (v: string) => void) => (e: ChangeEvent<HTMLInputElement>) => { set(e.target.value); setDirty(true); setFailure(undefined); };
  return (
    <Card title="Size">
      <dl className="grid grid-cols-[7rem_1fr] gap-y-1.5 text-sm">
        <dt className="text-slate-500 dark:text-slate-400">vCPUs</dt><dd data-testid="size-cpu">{view.cpuText}</dd>
        <dt className="text-slate-500 dark:text-slate-400">Memory</dt><dd data-testid="size-memory">{view.memoryText}</dd>
        <dt className="text-slate-500 dark:text-slate-400">Last change</dt>
        <dd data-testid="size-state" data-state={view.state}>
          <span className={`font-medium ${TONE[view.state]}`}>{view.stateText}</span>
          {view.detail && <span data-testid="size-detail" className="block text-xs text-slate-600 dark:text-slate-300">{view.detail}</span>}
          {view.why && <span data-testid="size-why" className="block text-xs text-slate-600 dark:text-slate-300">{view.why}</span>}
        </dd>
      </dl>
      {view.instancetype ? (
        <p className="mt-3 text-xs text-slate-600 dark:text-slate-300">The size comes from instance type <span className="font-mono">{view.instancetype}</span>: pick another type to change it (a restart applies it).</p>
      ) : canWrite && (
        <form className="mt-3 flex flex-col gap-2" onSubmit={(e) => { e.preventDefault(); void apply(); }}>
          <div className="grid grid-cols-2 gap-2">
            <label className="block text-sm font-medium">
              Sockets{view.perSocket > 1 ? ` (${view.perSocket} vCPUs each)` : ''}
              <input className={input} name="sockets" inputMode="numeric" value={sockets} onChange={edit(setSockets)} aria-invalid={!!error && error.startsWith('Sockets')} />
            </label>
            <label className="block text-sm font-medium">
              Memory
              <input className={input} name="memory" value={memory} placeholder="e.g. 2Gi" onChange={edit(setMemory)} aria-invalid={!!error && error.startsWith('Memory')} />
            </label>
          </div>
          {error && <p role="alert" className="text-xs text-red-600 dark:text-red-400">{error}</p>}
          <ServerErrors failure={failure} />
          <div className="flex gap-2">
            <Button type="submit" variant="primary" disabled={!patch || busy}>{busy ? 'Applying…' : 'Apply'}</Button>
            <Button variant="ghost" disabled={!dirty} onClick={() => { setDirty(false); setFailure(undefined); reset(); }}>Reset</Button>
          </div>
        </form>
      )}
    </Card>
  );
}
