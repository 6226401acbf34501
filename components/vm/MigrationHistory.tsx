'use client';
import type { VirtualMachineInstance, VirtualMachineInstanceMigration } from '@/lib/kubevirt';
import { formatAge } from '@/lib/console/format';
import { EmptyState } from '@/components/ui/EmptyState';
import { MigrationProgressBar } from './MigrationProgressBar';

export function MigrationHistory({ migrations, vmi, canWrite, now }: { migrations: VirtualMachineInstanceMigration[]; vmi?: VirtualMachineInstance; canWrite: boolean; now: number }) {
  if (!migrations.length) return <EmptyState title="No migrations yet">Use Migrate to move it to another node while it runs. (The 5 most recent finished migrations are kept.)</EmptyState>;
  return (
    <ul className="flex flex-col gap-4">
      {migrations.map((m) => (
        <li key={m.metadata.uid} className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
          <p className="mb-2 text-xs text-slate-500 dark:text-slate-400">{m.metadata.name} · {formatAge(m.metadata.creationTimestamp, now)} ago</p>
          <MigrationProgressBar vmim={m} vmiState={vmi?.status?.migrationState} canWrite={canWrite} />
        </li>
      ))}
    </ul>
  );
}
