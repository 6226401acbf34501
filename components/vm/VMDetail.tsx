'use client';
/** The VM page: header with actions, then tabs (overview, console, serial, YAML, events, devices, migrations, metrics). */
import { EventResource, PodResource, resourcePath, VirtualMachineInstanceMigrationResource, VirtualMachineInstanceResource, VirtualMachineResource } from '@/lib/kubevirt/resources';
import Link from 'next/link';
import dynamic from 'next/dynamic';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useMemo } from 'react';
import type { InstancetypeMatcher, VirtualMachine, VirtualMachineInstance, VirtualMachineInstanceMigration } from '@/lib/kubevirt';
import { buildVMRows } from '@/lib/console/vm-row';
import { explainWhyNotRunning, type KubeEvent, type PodLike } from '@/lib/console/why-not-running';
import { migrationsOfVMI } from '@/lib/console/migration-progress';
import { formatAge, formatBytes } from '@/lib/console/format';
import { useResourceList } from '@/components/live/useResourceList';
import { useNamespacePermissions } from '@/components/live/useNamespacePermissions';
import { Button } from '@/components/ui/Button';
import { Card, EmptyState } from '@/components/ui/EmptyState';
import { useNow } from '@/components/ui/useNow';
import { ConditionsList } from './ConditionsList';
import { DisksAndInterfaces } from './DisksAndInterfaces';
import { VMServices } from './VMServices';
import { GuestFacts } from './GuestFacts';
import { LiveSize } from './LiveSize';
import { EventsList } from './EventsList';
import { MetricsCharts } from './MetricsCharts';
import { MigrationHistory } from './MigrationHistory';
import { MigrationProgressBar } from './MigrationProgressBar';
import { useFollowedMigration } from './useFollowedMigration';
import { StatusBadge } from './StatusBadge';
import { VMActions } from './VMActions';
import { VMYaml } from './VMYaml';
import { WhyNotRunning } from './WhyNotRunning';
import { useInstancetypeSizes } from './useInstancetypeSizes';

const VncConsole = dynamic(() => import('@/components/console/VncConsole').then((m) => m.VncConsole), { ssr: false });
const SerialConsole = dynamic(() => import('@/components/console/SerialConsole').then((m) => m.SerialConsole), { ssr: false });

/** Fetch the console code while the user reads the overview, so opening a console waits only for the guest. */
function preloadConsoles(): void {
  void import('@/components/console/VncConsole');
  void import('@/components/console/SerialConsole');
  void import('@novnc/novnc');
}

const TABS = ['overview', 'console', 'serial', 'yaml', 'events', 'devices', 'migrations', 'metrics'] as const;
const TAB_LABEL: Record<(typeof TABS)[number], string> = { overview: 'Overview', console: 'VNC console', serial: 'Serial console', yaml: 'YAML', events: 'Events', devices: 'Disks & NICs', migrations: 'Migrations', metrics: 'Metrics' };

function useVMObjects(namespace: string, name: string) {
  const byName = { fieldSelector: `metadata.name=${name}` };
  const vm = useResourceList<VirtualMachine>(resourcePath(VirtualMachineResource, { namespace }), byName);
  const vmi = useResourceList<VirtualMachineInstance>(resourcePath(VirtualMachineInstanceResource, { namespace }), byName);
  const vmims = useResourceList<VirtualMachineInstanceMigration>(resourcePath(VirtualMachineInstanceMigrationResource, { namespace }));
  const pods = useResourceList<PodLike>(resourcePath(PodResource, { namespace }), { labelSelector: `vmi.kubevirt.io/id=${name}` });
  const events = useResourceList<KubeEvent>(resourcePath(EventResource, { namespace }));
  return { vm, vmi, vmims, pods, events };
}

/** An instance type or preference matcher: its name, the namespaced kind said, the pinned revision as a hint. */
function MatcherText({ m }: { m: InstancetypeMatcher }) {
  const namespaced = m.kind === 'VirtualMachineInstancetype' || m.kind === 'VirtualMachinePreference';
  return <span title={m.revisionName ? `pinned in ControllerRevision ${m.revisionName}` : 'not pinned yet: pinned when the VM starts'}><span className="font-mono">{m.name}</span>{namespaced && <span className="text-xs text-slate-500"> (namespaced)</span>}</span>;
}

export function VMDetail({ namespace, name }: { namespace: string; name: string }) {
  const o = useVMObjects(namespace, name);
  const permissions = useNamespacePermissions(namespace); // the user's rights here, not cluster-wide
  const now = useNow();
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const tab = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as (typeof TABS)[number]) : 'overview';
  const vm = o.vm.items[0];
  const vmi = o.vmi.items[0];
  const pod = o.pods.items.find((p) => !p.metadata.deletionTimestamp) ?? o.pods.items[0];
  const podNames = new Set(o.pods.items.map((p) => p.metadata.name));
  const events = useMemo(() => o.events.items.filter((e) => e.involvedObject?.name === name || podNames.has(e.involvedObject?.name)), [o.events.items, name, podNames]);
  const migrations = useMemo(() => migrationsOfVMI(o.vmims.items, namespace, name), [o.vmims.items, namespace, name]);
  const followed = useFollowedMigration(migrations);
  const sizes = useInstancetypeSizes();
  const guestRunning = o.vmi.items[0]?.status?.phase === 'Running';
  useEffect(() => { if (guestRunning) preloadConsoles(); }, [guestRunning]);
  if (!o.vm.loaded) return <p className="text-sm text-slate-500 dark:text-slate-400">Loading…</p>;
  if (!vm) return <EmptyState title={`VM ${namespace}/${name} does not exist`}>It may have been deleted. <Link className="text-indigo-600 dark:text-indigo-400 underline" href="/vms">Back to the list</Link></EmptyState>;
  const row = buildVMRows([vm], vmi ? [vmi] : [], new Date(now), sizes)[0];
  const causes = explainWhyNotRunning({ vm, vmi, pod, events, status: row.status });
  const running = vmi?.status?.phase === 'Running';
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <Link href="/vms" className="text-sm text-slate-500 dark:text-slate-400 hover:underline">Virtual machines</Link><span aria-hidden="true" className="text-slate-400">/</span>
        <h1 className="text-xl font-semibold">{name}</h1>
        <StatusBadge status={row.status} title={row.reason} />
        {row.reason && <span className="text-sm text-slate-500 dark:text-slate-400">{row.reason}</span>}
        <div className="ml-auto"><VMActions vm={vm} vmi={vmi} /></div>
      </div>
      {followed.shown && (
        <Card title={followed.finished ? 'Last migration' : 'Migration in progress'} actions={followed.finished && <Button variant="ghost" className="!px-2 !py-0.5 !text-xs" onClick={followed.dismiss}>Dismiss</Button>}>
          <MigrationProgressBar vmim={followed.shown} vmiState={vmi?.status?.migrationState} canWrite={!!permissions?.cancelMigration} />
        </Card>
      )}
      <nav className="flex gap-1 border-b border-slate-200 dark:border-slate-800" aria-label="VM sections">
        {TABS.map((t) => (
          <button key={t} type="button" onClick={() => router.replace(`${pathname}?tab=${t}`, { scroll: false })} aria-current={t === tab ? 'page' : undefined}
            className={`-mb-px border-b-2 px-3 py-2 text-sm ${t === tab ? 'border-indigo-500 font-medium' : 'border-transparent text-slate-500 dark:text-slate-400 hover:text-slate-900 dark:hover:text-white'}`}>{TAB_LABEL[t]}</button>
        ))}
      </nav>
      {tab === 'overview' && (
        <div className="grid gap-4 lg:grid-cols-3">
          <div className="flex flex-col gap-4 lg:col-span-2">
            <WhyNotRunning causes={causes} />
            <Card title="Conditions">
              <ConditionsList conditions={vm.status?.conditions ?? []} source="VM" />
              <div className="mt-3"><ConditionsList conditions={vmi?.status?.conditions ?? []} source="VMI" /></div>
            </Card>
            <Card title="Recent events"><EventsList events={events} now={now} limit={8} /></Card>
          </div>
          <div className="flex flex-col gap-4">
          <Card title="Details">
            <dl className="grid grid-cols-[7rem_1fr] gap-y-1.5 text-sm">
              <dt className="text-slate-500 dark:text-slate-400">Namespace</dt><dd>{namespace}</dd>
              <dt className="text-slate-500 dark:text-slate-400">Node</dt><dd>{row.node || '—'}</dd>
              <dt className="text-slate-500 dark:text-slate-400">IP</dt><dd className="font-mono text-xs">{row.ip || '—'}</dd>
              <dt className="text-slate-500 dark:text-slate-400">CPU</dt><dd>{row.cpus} vCPU</dd>
              <dt className="text-slate-500 dark:text-slate-400">Memory</dt><dd>{formatBytes(row.memoryBytes)}</dd>
              {vm.spec.instancetype && <><dt className="text-slate-500 dark:text-slate-400">Instance type</dt><dd data-testid="vm-instancetype"><MatcherText m={vm.spec.instancetype} /></dd></>}
              {vm.spec.preference && <><dt className="text-slate-500 dark:text-slate-400">Preference</dt><dd data-testid="vm-preference"><MatcherText m={vm.spec.preference} /></dd></>}
              <dt className="text-slate-500 dark:text-slate-400">Run strategy</dt><dd>{vm.spec.runStrategy ?? (vm.spec.running ? 'Always (running: true)' : 'Halted (running: false)')}</dd>
              <dt className="text-slate-500 dark:text-slate-400">Age</dt><dd>{formatAge(vm.metadata.creationTimestamp, now)}</dd>
              <dt className="text-slate-500 dark:text-slate-400">Guest OS</dt><dd>{vmi?.status?.guestOSInfo?.prettyName ?? vmi?.status?.guestOSInfo?.name ?? '—'}</dd>
              <dt className="text-slate-500 dark:text-slate-400">Launcher</dt><dd className="truncate">{pod?.metadata.name ?? '—'}</dd>
            </dl>
          </Card>
          <LiveSize vm={vm} vmi={vmi} canWrite={!!permissions?.patchVM} />
          <GuestFacts vmi={vmi} />
          </div>
        </div>
      )}
      {tab === 'console' && (running ? <div><VncConsole namespace={namespace} name={name} /><Link className="mt-2 inline-block text-sm text-indigo-600 dark:text-indigo-400 underline" href={`/vms/${namespace}/${name}/vnc`} target="_blank">Open full screen in a new tab</Link></div> : <EmptyState title="The console opens when it runs">{causes[0]?.title}</EmptyState>)}
      {tab === 'serial' && (running ? <SerialConsole namespace={namespace} name={name} /> : <EmptyState title="The serial console opens when it runs">{causes[0]?.title}</EmptyState>)}
      {tab === 'yaml' && <VMYaml vm={vm} canWrite={!!permissions?.updateVM} />}
      {tab === 'events' && <EventsList events={events} now={now} />}
      {tab === 'devices' && <><DisksAndInterfaces vm={vm} vmi={vmi} /><VMServices vm={vm} vmi={vmi} /></>}
      {tab === 'migrations' && <MigrationHistory migrations={migrations} vmi={vmi} canWrite={!!permissions?.cancelMigration} now={now} />}
      {tab === 'metrics' && <MetricsCharts namespace={namespace} name={name} running={running} />}
    </div>
  );
}
