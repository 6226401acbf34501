'use client';
import Link from 'next/link';
import { useMigrations, useVMIs } from '@/components/live/useCluster';
import { useManyNamespacePermissions } from '@/components/live/useNamespacePermissions';
import { EmptyState } from '@/components/ui/EmptyState';
import { useNow } from '@/components/ui/useNow';
import { formatAge } from '@/lib/console/format';
import { MigrationProgressBar } from '@/components/vm/MigrationProgressBar';

/** Every migration, live; running ones first; Cancel deletes the VMIM (where the user may, per namespace). */
export function MigrationsTable({ activeOnly }: { activeOnly?: boolean }) {
  const { items, loaded } = useMigrations();
  const { items: vmis } = useVMIs();
  const now = useNow();
  const done = (p?: string) => p === 'Succeeded' || p === 'Failed';
  const list = items.filter((m) => !activeOnly || !done(m.status?.phase))
    .sort((a, b) => Number(done(a.status?.phase)) - Number(done(b.status?.phase)) || Date.parse(b.metadata.creationTimestamp ?? '') - Date.parse(a.metadata.creationTimestamp ?? ''));
  const permissions = useManyNamespacePermissions([...new Set(list.map((m) => m.metadata.namespace ?? 'default'))]);
  if (loaded && !list.length) return <EmptyState title={activeOnly ? 'No migration running' : 'No migrations'}>Migrate a running VM from its page or the VM list.</EmptyState>;
  return (
    <ul className="flex flex-col gap-3">
      {list.map((m) => {
        const vmi = vmis.find((v) => v.metadata.namespace === m.metadata.namespace && v.metadata.name === m.spec.vmiName);
        return (
          <li key={m.metadata.uid} className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900">
            <p className="mb-2 text-sm"><Link className="font-medium text-indigo-700 hover:underline dark:text-indigo-300" href={`/vms/${m.metadata.namespace}/${m.spec.vmiName}?tab=migrations`}>{m.metadata.namespace}/{m.spec.vmiName}</Link> <span className="text-xs text-slate-500 dark:text-slate-400">{m.metadata.name} · {formatAge(m.metadata.creationTimestamp, now)} ago</span></p>
            <MigrationProgressBar vmim={m} vmiState={vmi?.status?.migrationState} canWrite={!!permissions.get(m.metadata.namespace ?? 'default')?.cancelMigration} />
          </li>
        );
      })}
    </ul>
  );
}
