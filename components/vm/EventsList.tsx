import type { KubeEvent } from '@/lib/console/why-not-running';
import { formatAge } from '@/lib/console/format';
import { EmptyState } from '@/components/ui/EmptyState';

const timeOf = (e: KubeEvent) => e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp;

export function EventsList({ events, now, limit = 200 }: { events: KubeEvent[]; now: number; limit?: number }) {
  const sorted = [...events].sort((a, b) => Date.parse(timeOf(b) ?? '') - Date.parse(timeOf(a) ?? '')).slice(0, limit);
  if (!sorted.length) return <EmptyState title="No events">Events appear here as the VM is scheduled, started, migrated or stopped.</EmptyState>;
  return (
    <table className="w-full text-sm">
      <thead className="text-left text-xs uppercase text-slate-500 dark:text-slate-400"><tr><th className="py-1">Age</th><th>Type</th><th>Reason</th><th>Object</th><th>Message</th></tr></thead>
      <tbody>
        {sorted.map((e) => (
          <tr key={e.metadata.uid ?? e.metadata.name} className="border-t border-slate-100 align-top dark:border-slate-800">
            <td className="py-1 pr-3 text-slate-500 dark:text-slate-400">{formatAge(timeOf(e), now)}</td>
            <td className={`pr-3 ${e.type === 'Warning' ? 'text-amber-700 dark:text-amber-400' : ''}`}>{e.type}</td>
            <td className="pr-3 font-medium">{e.reason}{(e.count ?? 1) > 1 ? ` ×${e.count}` : ''}</td>
            <td className="pr-3 text-slate-500 [overflow-wrap:anywhere] dark:text-slate-400">{e.involvedObject?.kind}/{e.involvedObject?.name}</td>
            {/* long words (claim names, PersistentVolumeClaims) wrap instead of widening the page */}
            <td className="[overflow-wrap:anywhere]">{e.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
