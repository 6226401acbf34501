'use client';
/**
 * The VM page's Guest card: what the guest agent reports (OS, kernel, hostname, time zone, the guest's
 * own addresses, signed-in users, filesystems with their use), refreshed every 15 s while the agent
 * is connected — the `guestosinfo`, `userlist` and `filesystemlist` subresources virtctl also reads.
 */
import { useQuery } from '@tanstack/react-query';
import type { VirtualMachineInstance } from '@/lib/kubevirt';
import { hasCondition, VMIConditionType } from '@/lib/kubevirt';
import { subresourcePath, VirtualMachineInstanceResource } from '@/lib/kubevirt/resources';
import { guestFacts, type GuestAgentInfo, type GuestFsList, type GuestUserList } from '@/lib/console/guest-facts';
import { queryKeys } from '@/lib/console/query-keys';
import { kubeFetch } from '@/components/live/api-fetch';
import { Card } from '@/components/ui/EmptyState';

const REFRESH_MS = 15_000;
const dt = 'text-slate-500 dark:text-slate-400';

export function GuestFacts({ vmi }: { vmi: VirtualMachineInstance | undefined }) {
  const namespace = vmi?.metadata.namespace ?? '';
  const name = vmi?.metadata.name ?? '';
  const connected = !!vmi && vmi.status?.phase === 'Running' && hasCondition(vmi, VMIConditionType.AgentConnected, 'True');
  const path = (sub: string) => subresourcePath(VirtualMachineInstanceResource, namespace, name, sub);
  const q = useQuery({
    queryKey: queryKeys.guest(namespace, name, vmi?.metadata.uid ?? ''),
    enabled: connected,
    refetchInterval: REFRESH_MS,
    queryFn: async () => {
      const [info, users, fss] = await Promise.all([
        kubeFetch<GuestAgentInfo>('GET', path('guestosinfo')),
        kubeFetch<GuestUserList>('GET', path('userlist')).catch(() => undefined),
        kubeFetch<GuestFsList>('GET', path('filesystemlist')).catch(() => undefined),
      ]);
      return guestFacts(info, users, fss);
    },
  });
  if (!connected) {
    return <Card title="Guest"><p className="text-sm text-slate-500 dark:text-slate-400">{vmi?.status?.phase === 'Running' ? 'No guest agent is connected: install qemu-guest-agent in the guest to see its OS, users and filesystems here.' : 'Shown while the VM runs.'}</p></Card>;
  }
  const f = q.data;
  return (
    <Card title="Guest">
      {q.error && <p role="alert" className="mb-2 text-sm text-red-600 dark:text-red-400">{(q.error as Error).message}</p>}
      {!f ? <p className="text-sm text-slate-500 dark:text-slate-400">Asking the guest agent…</p> : (
        <div className="flex flex-col gap-3 text-sm" data-testid="guest-facts">
          <dl className="grid grid-cols-[7rem_1fr] gap-y-1.5">
            {f.facts.map(([k, v]) => <Fact key={k} label={k} value={v} />)}
            {f.addresses.map((a) => <Fact key={a.name} label={a.name} value={a.ips} mono />)}
          </dl>
          <div>
            <h3 className="mb-1 font-medium">Users</h3>
            {f.users.length === 0 ? <p className={dt}>Nobody is signed in.</p> : (
              <ul>{f.users.map((u) => <li key={`${u.name}${u.since}`}>{u.name} <span className={dt}>since {u.since}</span></li>)}</ul>
            )}
          </div>
          <div>
            <h3 className="mb-1 font-medium">Filesystems</h3>
            <ul className="flex flex-col gap-1">
              {f.filesystems.map((fs) => (
                <li key={fs.mount} className="flex items-center gap-2">
                  <span className="w-28 truncate font-mono text-xs" title={fs.mount}>{fs.mount}</span>
                  <span className={`w-14 ${dt}`}>{fs.type}</span>
                  {fs.percent !== undefined && <span className="h-1.5 w-16 rounded bg-slate-200 dark:bg-slate-700" aria-hidden="true"><span className="block h-1.5 rounded bg-indigo-500" style={{ width: `${fs.percent}%` }} /></span>}
                  <span className={dt}>{fs.used}</span>
                </li>
              ))}
            </ul>
          </div>
        </div>
      )}
    </Card>
  );
}

function Fact({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return <><dt className={dt}>{label}</dt><dd className={mono ? 'font-mono text-xs' : undefined}>{value}</dd></>;
}
