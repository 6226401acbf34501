'use client';
import { resourcePath, VirtualMachineInstanceMigrationResource } from '@/lib/kubevirt/resources';
import type { VMIMigrationState, VirtualMachineInstanceMigration } from '@/lib/kubevirt';
import { computeMigrationProgress } from '@/lib/console/migration-progress';
import { formatDuration } from '@/lib/console/format';
import { kubeFetch } from '@/components/live/api-fetch';
import { Button } from '@/components/ui/Button';
import { useToast } from '@/components/ui/Toasts';

/** Progress of one migration; Cancel deletes the VMIM (virtctl migrate-cancel does the same). */
export function MigrationProgressBar({ vmim, vmiState, canWrite }: { vmim: VirtualMachineInstanceMigration; vmiState?: VMIMigrationState; canWrite: boolean }) {
  const p = computeMigrationProgress(vmim, vmiState);
  const toast = useToast();
  const cancel = async () => {
    try {
      await kubeFetch('DELETE', resourcePath(VirtualMachineInstanceMigrationResource, { namespace: vmim.metadata.namespace, name: vmim.metadata.name }));
      toast('info', `Cancelling migration of ${vmim.spec.vmiName}…`);
    } catch (err) { toast('error', `Cancel refused: ${(err as Error).message}`); }
  };
  const color = p.done ? (p.succeeded ? 'bg-emerald-500' : 'bg-red-500') : 'bg-sky-500';
  return (
    <div className="flex flex-col gap-1" data-testid="migration-progress" data-phase={p.phase}>
      <div className="flex items-center justify-between text-sm">
        <span><span className="font-medium">{p.label}</span>{p.sourceNode && p.targetNode ? ` · ${p.sourceNode} → ${p.targetNode}` : ''}</span>
        <span className="text-xs text-slate-500 dark:text-slate-400">
          {p.etaSeconds !== undefined ? `ETA ${p.etaSeconds}s · ` : ''}
          {p.done && p.durationMs !== undefined ? `took ${formatDuration(p.durationMs)}` : ''}
          {p.done && p.succeeded ? ` · downtime ${p.downtimeMs !== undefined ? formatDuration(p.downtimeMs) : 'not reported'}` : ''}
        </span>
      </div>
      <div role="progressbar" aria-valuenow={p.percent} aria-valuemin={0} aria-valuemax={100} aria-label="Migration progress" className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800">
        <div className={`h-full ${color} transition-all duration-500 ${!p.done && !p.measured ? 'animate-pulse' : ''}`} style={{ width: `${p.percent}%` }} />
      </div>
      {p.failureReason && <p className="text-xs text-red-600 dark:text-red-400">{p.failureReason}</p>}
      {!p.done && canWrite && <div><Button onClick={cancel} className="!px-2 !py-0.5 !text-xs">Cancel migration</Button></div>}
    </div>
  );
}
