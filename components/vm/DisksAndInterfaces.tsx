import type { VirtualMachine, VirtualMachineInstance } from '@/lib/kubevirt';

export function DisksAndInterfaces({ vm, vmi }: { vm: VirtualMachine; vmi?: VirtualMachineInstance }) {
  const spec = vm.spec.template.spec;
  const volumes = new Map((spec.volumes ?? []).map((v) => [v.name, v]));
  const sourceOf = (name: string) => {
    const v = volumes.get(name);
    if (!v) return '—';
    if (v.containerDisk) return `containerDisk ${v.containerDisk.image}`;
    if (v.cloudInitNoCloud) return 'cloud-init (NoCloud)';
    if (v.persistentVolumeClaim) return `PVC ${v.persistentVolumeClaim.claimName}`;
    if (v.dataVolume) return `DataVolume ${v.dataVolume.name}`;
    return Object.keys(v).filter((k) => k !== 'name').join(', ');
  };
  const cell = 'py-1 pr-4';
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <div>
        <h3 className="mb-2 text-sm font-semibold">Disks</h3>
        <table className="w-full text-sm"><thead className="text-left text-xs uppercase text-slate-500 dark:text-slate-400"><tr><th>Name</th><th>Type</th><th>Bus</th><th>Source</th></tr></thead>
          <tbody>{(spec.domain.devices.disks ?? []).map((d) => (
            <tr key={d.name} className="border-t border-slate-100 dark:border-slate-800"><td className={cell}>{d.name}</td><td className={cell}>{d.cdrom ? 'cdrom' : d.lun ? 'lun' : 'disk'}</td><td className={cell}>{d.disk?.bus ?? d.cdrom?.bus ?? '—'}</td><td className={cell}>{sourceOf(d.name)}</td></tr>
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
