'use client';
/** Nodes with capacity and use; cordon/uncordon; drain = cordon + evict each VM, with per-VM progress. */
import { NodeResource, objectSubresourcePath, PodResource, resourcePath } from '@/lib/kubevirt/resources';
import { useState } from 'react';
import { computeNodeUsage } from '@/lib/console/node-usage';
import { formatBytes } from '@/lib/console/format';
import { useLauncherPods, useNodes, useVMIs, type NodeObject } from '@/components/live/useCluster';
import { useSession } from '@/components/live/useSession';
import { kubeFetch } from '@/components/live/api-fetch';
import { Button } from '@/components/ui/Button';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { EmptyState } from '@/components/ui/EmptyState';
import { useToast } from '@/components/ui/Toasts';
import type { PodRequestLike } from '@/lib/console/node-usage';

function Bar({ used, total }: { used: number; total: number }) {
  const pct = total ? Math.min(100, (100 * used) / total) : 0;
  return <div className="h-1.5 w-32 rounded-full bg-slate-200 dark:bg-slate-800"><div className={`h-1.5 rounded-full ${pct > 85 ? 'bg-red-500' : 'bg-indigo-500'}`} style={{ width: `${pct}%` }} /></div>;
}

export function NodeUsageCell({ node, pods }: { node: NodeObject; pods: PodRequestLike[] }) {
  const u = computeNodeUsage(node, pods);
  return (
    <div className="flex flex-col gap-1 text-xs">
      <div className="flex items-center gap-2"><span className="w-10">CPU</span><Bar used={u.cpuRequested} total={u.cpuCapacity} /><span>{u.cpuRequested.toFixed(1)} / {u.cpuCapacity}</span></div>
      <div className="flex items-center gap-2"><span className="w-10">Mem</span><Bar used={u.memoryRequested} total={u.memoryCapacity} /><span>{formatBytes(u.memoryRequested)} / {formatBytes(u.memoryCapacity)}</span></div>
    </div>
  );
}

const isReady = (n: NodeObject) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');

export function NodesTable() {
  const { items: nodes, loaded } = useNodes();
  const { items: pods } = useLauncherPods();
  const { items: vmis } = useVMIs();
  const session = useSession();
  const toast = useToast();
  const [draining, setDraining] = useState<string>();
  const [drainTarget, setDrainTarget] = useState<string>();
  const cordon = async (name: string, unschedulable: boolean) => {
    try { await kubeFetch('PATCH', resourcePath(NodeResource, { name }), { spec: { unschedulable } }, 'application/merge-patch+json'); toast('success', `${name} ${unschedulable ? 'cordoned' : 'uncordoned'}`); }
    catch (err) { toast('error', `${(err as Error).message}`); }
  };
  const drain = async (name: string) => {
    setDraining(name);
    await cordon(name, true);
    const onNode = (pods as (PodRequestLike & { metadata: { name?: string; namespace?: string } })[]).filter((p) => p.spec?.nodeName === name);
    for (const p of onNode) {
      try {
        await kubeFetch('POST', objectSubresourcePath(PodResource, { namespace: p.metadata.namespace, name: p.metadata.name ?? '' }, 'eviction'), { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: p.metadata.name, namespace: p.metadata.namespace } });
      } catch (err) { toast('error', `Evicting ${p.metadata.name}: ${(err as Error).message}`); }
    }
  };
  if (loaded && !nodes.length) return <EmptyState title="No nodes">Start a cluster with `kv up`, or check that your kubeconfig points at one.</EmptyState>;
  return (
    <div className="overflow-hidden rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <table className="w-full text-sm">
        <thead className="text-left text-xs uppercase text-slate-500 dark:text-slate-400"><tr className="border-b border-slate-200 dark:border-slate-800"><th className="p-3">Node</th><th>Status</th><th>Requested / allocatable</th><th>VMs</th><th>Actions</th></tr></thead>
        <tbody>
          {nodes.map((n) => {
            const name = n.metadata.name!;
            const here = vmis.filter((v) => v.status?.nodeName === name && v.status?.phase === 'Running');
            return (
              <tr key={name} className="border-b border-slate-100 align-top dark:border-slate-800" data-node={name}>
                <td className="p-3 font-medium">{name}</td>
                <td className="py-3">{isReady(n) ? <span className="text-emerald-700 dark:text-emerald-400">Ready</span> : <span className="text-red-600 dark:text-red-400">NotReady</span>}{n.spec?.unschedulable && <span className="ml-2 text-amber-700 dark:text-amber-400">cordoned</span>}</td>
                <td className="py-3"><NodeUsageCell node={n} pods={pods as PodRequestLike[]} /></td>
                <td className="py-3">
                  {here.length}
                  {draining === name && <ul className="mt-1 text-xs" aria-label="Drain progress">{here.length === 0 ? <li className="text-emerald-700 dark:text-emerald-400">Drained: no VM left</li> : here.map((v) => <li key={v.metadata.uid}>{v.metadata.name}: {v.status?.migrationState && !v.status.migrationState.completed ? 'migrating…' : 'waiting to leave'}</li>)}</ul>}
                </td>
                <td className="py-3 pr-3">
                  {session.canWrite && <div className="flex gap-1.5">
                    {n.spec?.unschedulable ? <Button onClick={() => { setDraining(undefined); void cordon(name, false); }}>Uncordon</Button> : <Button onClick={() => cordon(name, true)}>Cordon</Button>}
                    <Button variant="danger" onClick={() => setDrainTarget(name)}>Drain</Button>
                  </div>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <ConfirmDialog open={!!drainTarget} title={`Drain ${drainTarget}?`} confirmLabel="Drain"
        message="Cordons the node and evicts every VM on it: VMs with a LiveMigrate eviction strategy move to another node, the others stop."
        onCancel={() => setDrainTarget(undefined)} onConfirm={() => { const n = drainTarget!; setDrainTarget(undefined); void drain(n); }} />
    </div>
  );
}
