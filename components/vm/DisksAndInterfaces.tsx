import type { KubeObject, VirtualMachine, VirtualMachineInstance } from '@/lib/kubevirt';
import { DataVolumeResource, PersistentVolumeClaimResource, resourcePath } from '@/lib/kubevirt/resources';
import { diskRows, type ClaimLike, type DataVolumeLike } from '@/lib/console/disk-rows';
import { useResourceList } from '@/components/live/useResourceList';

export function DisksAndInterfaces({ vm, vmi }: { vm: VirtualMachine; vmi?: VirtualMachineInstance }) {
  const spec = vm.spec.template.spec;
  const namespace = vm.metadata.namespace ?? 'default';
  const claims = useResourceList<KubeObject & ClaimLike>(resourcePath(PersistentVolumeClaimResource, { namespace }));
  const dataVolumes = useResourceList<KubeObject & DataVolumeLike>(resourcePath(DataVolumeResource, { namespace }));
  const rows = diskRows(vm, vmi, claims.items, dataVolumes.items);
  const cell = 'py-1 pr-4';
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <div>
        <h3 className="mb-2 text-sm font-semibold">Disks</h3>
        <table className="w-full text-sm" data-testid="disks-table"><thead className="text-left text-xs uppercase text-slate-500 dark:text-slate-400"><tr><th>Name</th><th>Bus</th><th>Source</th><th>Class</th><th>Size</th><th>Access</th></tr></thead>
          <tbody>{rows.map((r) => (
            <tr key={r.name} className="border-t border-slate-100 dark:border-slate-800">
              <td className={cell}>{r.name}{r.type !== 'disk' ? ` (${r.type})` : ''}{r.hotplugged ? <span className="ml-1 text-xs text-slate-500"> hot-plugged</span> : null}</td>
              <td className={cell}>{r.bus}</td>
              <td className={cell}>{r.source}{r.state ? <div className={`text-xs ${r.failed ? 'text-red-600 dark:text-red-400' : 'text-amber-600 dark:text-amber-400'}`}>{r.state}</div> : null}</td>
              <td className={cell}>{r.storageClass ?? '—'}</td>
              <td className={cell}>{r.capacity ?? '—'}</td>
              <td className={cell}>{r.access ?? '—'}</td>
            </tr>
          ))}</tbody></table>
      </div>
      <div>
        <h3 className="mb-2 text-sm font-semibold">Network interfaces</h3>
        <table className="w-full text-sm"><thead className="text-left text-xs uppercase text-slate-500 dark:text-slate-400"><tr><th>Name</th><th>IP</th><th>MAC</th><th>Binding</th></tr></thead>
          <tbody>{(vmi?.status?.interfaces ?? (spec.domain.devices.interfaces ?? []).map((i) => ({ name: i.name })) ?? []).map((i) => {
            const specIf = spec.domain.devices.interfaces?.find((x) => x.name === i.name);
            const binding = specIf ? (specIf.masquerade ? 'masquerade' : specIf.bridge ? 'bridge' : specIf.binding?.name ?? '—') : 'masquerade (default)';
            return <tr key={i.name ?? 'default'} className="border-t border-slate-100 dark:border-slate-800"><td className={cell}>{i.name ?? 'default'}</td><td className={`${cell} font-mono text-xs`}>{'ipAddress' in i ? i.ipAddress ?? '—' : '—'}</td><td className={`${cell} font-mono text-xs`}>{'mac' in i ? i.mac ?? '—' : '—'}</td><td className={cell}>{binding}</td></tr>;
          })}</tbody></table>
        {!vmi && <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">Addresses appear once it runs.</p>}
      </div>
    </div>
  );
}
