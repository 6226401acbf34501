'use client';
/** The dashboard: nodes with capacity and use, VMs by status, running migrations, recent warnings. */
import Link from 'next/link';
import { useMemo } from 'react';
import { buildVMRows, countByStatus } from '@/lib/console/vm-row';
import type { PodRequestLike } from '@/lib/console/node-usage';
import { useEvents, useLauncherPods, useNodes, useVMIs, useVMs } from '@/components/live/useCluster';
import { Card, EmptyState } from '@/components/ui/EmptyState';
import { useNow } from '@/components/ui/useNow';
import { EventsList } from '@/components/vm/EventsList';
import { StatusBadge } from '@/components/vm/StatusBadge';
import { MigrationsTable } from '@/components/migrations/MigrationsTable';
import { NodeUsageCell } from '@/components/nodes/NodesTable';

export function Overview() {
  const { items: vms, loaded } = useVMs();
  const { items: vmis } = useVMIs();
  const { items: nodes } = useNodes();
  const { items: pods } = useLauncherPods();
  const { items: events } = useEvents();
  const now = useNow();
  const counts = useMemo(() => countByStatus(buildVMRows(vms, vmis, new Date(now))), [vms, vmis, now]);
  const warnings = events.filter((e) => e.type === 'Warning');
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card title={`Virtual machines (${vms.length})`} actions={<Link className="text-sm text-indigo-600 dark:text-indigo-400 hover:underline" href="/vms/new">Create VM</Link>}>
        {loaded && !vms.length ? <EmptyState title="No VMs yet"><Link className="text-indigo-600 dark:text-indigo-400 underline" href="/vms/new">Create one from the demo image</Link> — it boots in seconds.</EmptyState> : (
          <div className="flex flex-wrap gap-3">
            {Object.entries(counts).sort().map(([s, n]) => (
              <Link key={s} href={`/vms?status=${s}`} className="flex items-center gap-2 rounded-lg border border-slate-200 px-3 py-2 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-800" data-count={s}>
                <span className="text-2xl font-semibold">{n}</span><StatusBadge status={s} />
              </Link>
            ))}
          </div>
        )}
      </Card>
      <Card title={`Nodes (${nodes.length})`} actions={<Link className="text-sm text-indigo-600 dark:text-indigo-400 hover:underline" href="/nodes">Manage</Link>}>
        <ul className="flex flex-col gap-3">
          {nodes.map((n) => (
            <li key={n.metadata.name} className="flex items-center justify-between gap-3">
              <span className="font-medium">{n.metadata.name}{n.spec?.unschedulable && <span className="ml-2 text-xs text-amber-700 dark:text-amber-400">cordoned</span>}</span>
              <NodeUsageCell node={n} pods={pods as PodRequestLike[]} />
            </li>
          ))}
        </ul>
      </Card>
      <Card title="Running migrations"><MigrationsTable activeOnly /></Card>
      <Card title="Recent warnings"><EventsList events={warnings} now={now} limit={8} /></Card>
    </div>
  );
}
