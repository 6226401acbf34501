'use client';
/**
 * The Storage page: every volume claim (state, size, access, class, the VMs using it; a DataVolume
 * still filling shows its progress, a failed one why), VM snapshots, and the storage classes.
 * Live like every list; an unused claim can be deleted (kube's pvc-protection keeps a used one).
 */
import Link from 'next/link';
import { useState } from 'react';
import type { KubeObject } from '@/lib/kubevirt';
import { DataVolumeResource, PersistentVolumeClaimResource, resourcePath, StorageClassResource, VirtualMachineSnapshotResource } from '@/lib/kubevirt/resources';
import { claimRows, classRows, snapshotRows, type SnapshotLike, type StorageClaim, type StorageClassLike, type StorageDataVolume } from '@/lib/console/storage-rows';
import { formatAge } from '@/lib/console/format';
import { useResourceList } from '@/components/live/useResourceList';
import { useVMs } from '@/components/live/useCluster';
import { useManyNamespacePermissions } from '@/components/live/useNamespacePermissions';
import { kubeFetch } from '@/components/live/api-fetch';
import { Button } from '@/components/ui/Button';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { Card, EmptyState } from '@/components/ui/EmptyState';
import { useToast } from '@/components/ui/Toasts';
import { useNow } from '@/components/ui/useNow';

const th = 'p-2 text-left text-xs font-medium uppercase text-slate-500 dark:text-slate-400';
const td = 'p-2 align-top';

export function StorageTables() {
  const claims = useResourceList<KubeObject & StorageClaim>(resourcePath(PersistentVolumeClaimResource));
  const dataVolumes = useResourceList<KubeObject & StorageDataVolume>(resourcePath(DataVolumeResource));
  const classes = useResourceList<KubeObject & StorageClassLike>(resourcePath(StorageClassResource));
  const snapshots = useResourceList<KubeObject & SnapshotLike>(resourcePath(VirtualMachineSnapshotResource));
  const { items: vms } = useVMs();
  const toast = useToast();
  const now = useNow();
  const [deleting, setDeleting] = useState<{ namespace: string; name: string }>();
  const rows = claimRows(claims.items, dataVolumes.items, vms);
  const permissions = useManyNamespacePermissions([...new Set(rows.map((r) => r.namespace))]); // Delete where the user may, per namespace
  const remove = async (t: { namespace: string; name: string }) => {
    setDeleting(undefined);
    try {
      await kubeFetch('DELETE', resourcePath(PersistentVolumeClaimResource, t));
      toast('success', `Claim ${t.namespace}/${t.name} deleted`);
    } catch (err) {
      toast('error', (err as Error).message);
    }
  };
  return (
    <div className="flex flex-col gap-4">
      <Card title="Volumes">
        {claims.loaded && rows.length === 0 ? <EmptyState title="No volumes">Add a data disk when you create a VM, or apply a DataVolume or a PersistentVolumeClaim.</EmptyState> : (
          <div className="overflow-x-auto">
            <table className="w-full text-sm" data-testid="claims-table">
              <thead><tr className="border-b border-slate-200 dark:border-slate-800"><th className={th}>Claim</th><th className={th}>Status</th><th className={th}>Size</th><th className={th}>Access</th><th className={th}>Class</th><th className={th}>Mode</th><th className={th}>Used by</th><th className={th}>Age</th><th className={th} /></tr></thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.key} className="border-b border-slate-100 dark:border-slate-800" data-claim={r.key}>
                    <td className={td}><span className="text-slate-500 dark:text-slate-400">{r.namespace}/</span>{r.name}</td>
                    <td className={`${td} ${r.failed ? 'text-red-600 dark:text-red-400' : ''}`}>{r.status}</td>
                    <td className={td}>{r.capacity}</td>
                    <td className={td}>{r.access}</td>
                    <td className={td}>{r.storageClass}</td>
                    <td className={td}>{r.volumeMode}</td>
                    <td className={td}>{r.usedBy.length ? r.usedBy.map((vm) => <Link key={vm} className="mr-2 text-indigo-600 underline dark:text-indigo-400" href={`/vms/${r.namespace}/${vm}?tab=devices`}>{vm}</Link>) : <span className="text-slate-400">—</span>}</td>
                    <td className={td}>{formatAge(r.created, now)}</td>
                    <td className={td}>{!!permissions.get(r.namespace)?.deletePVC && r.usedBy.length === 0 && r.status !== 'Terminating' && <Button variant="ghost" className="!px-2 !py-0.5 !text-xs" onClick={() => setDeleting({ namespace: r.namespace, name: r.name })}>Delete</Button>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <Card title="Snapshots">
        {snapshots.loaded && snapshots.items.length === 0 ? <p className="text-sm text-slate-500 dark:text-slate-400">No VM snapshots. A VirtualMachineSnapshot copies a VM&apos;s claims; a VirtualMachineRestore writes them back (docs/storage.md).</p> : (
          <table className="w-full text-sm" data-testid="snapshots-table">
            <thead><tr className="border-b border-slate-200 dark:border-slate-800"><th className={th}>Snapshot</th><th className={th}>VM</th><th className={th}>Phase</th><th className={th}>Taken</th><th className={th}>Age</th></tr></thead>
            <tbody>
              {snapshotRows(snapshots.items).map((s) => (
                <tr key={s.key} className="border-b border-slate-100 dark:border-slate-800">
                  <td className={td}><span className="text-slate-500 dark:text-slate-400">{s.namespace}/</span>{s.name}</td>
                  <td className={td}><Link className="text-indigo-600 underline dark:text-indigo-400" href={`/vms/${s.namespace}/${s.vm}`}>{s.vm}</Link></td>
                  <td className={`${td} ${s.error ? 'text-red-600 dark:text-red-400' : ''}`}>{s.phase}{s.ready ? ', ready' : ''}{s.error ? `: ${s.error}` : ''}</td>
                  <td className={td}>{s.kind}</td>
                  <td className={td}>{formatAge(s.created, now)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <Card title="Storage classes">
        <table className="w-full text-sm" data-testid="classes-table">
          <thead><tr className="border-b border-slate-200 dark:border-slate-800"><th className={th}>Class</th><th className={th}>Provisioner</th><th className={th}>Binding</th><th className={th}>Reclaim</th><th className={th}>Expansion</th><th className={th}>Claims</th></tr></thead>
          <tbody>
            {classRows(classes.items, claims.items).map((c) => (
              <tr key={c.name} className="border-b border-slate-100 dark:border-slate-800">
                <td className={td}>{c.name}{c.isDefault && <span className="ml-2 rounded bg-indigo-100 px-1.5 text-xs text-indigo-700 dark:bg-indigo-900 dark:text-indigo-200">default</span>}</td>
                <td className={`${td} font-mono text-xs`}>{c.provisioner}</td>
                <td className={td}>{c.binding}</td>
                <td className={td}>{c.reclaim}</td>
                <td className={td}>{c.expansion ? 'yes' : 'no'}</td>
                <td className={td}>{c.claims}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <ConfirmDialog open={!!deleting} title="Delete this claim?" message={deleting ? `${deleting.namespace}/${deleting.name} and its data are deleted (with reclaimPolicy Delete). No VM uses it.` : ''} confirmLabel="Delete" onConfirm={() => deleting && void remove(deleting)} onCancel={() => setDeleting(undefined)} />
    </div>
  );
}
