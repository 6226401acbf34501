/**
 * PURE: the Services that select a VM's launcher Pod, as the VM page lists them. The launcher Pod
 * carries the VMI's labels plus KubeVirt's own (kubevirt.io=virt-launcher, vm.kubevirt.io/name,
 * vmi.kubevirt.io/id), so a Service selects the VM when every selector pair is among those.
 */
import type { VirtualMachine, VirtualMachineInstance } from '@/lib/kubevirt';
import { Label } from '@/lib/kubevirt/labels';

export interface ServiceLike {
  metadata: { name?: string };
  spec?: { type?: string; clusterIP?: string; selector?: Record<string, string>; ports?: { name?: string; port: number; targetPort?: number | string; nodePort?: number; protocol?: string }[] };
}

export interface ServiceRow { name: string; type: string; clusterIP: string; ports: string }

/** The labels the VM's launcher Pod carries (from the running VMI, else from the template). */
export function launcherLabels(vm: VirtualMachine, vmi?: VirtualMachineInstance): Record<string, string> {
  const name = vm.metadata.name ?? '';
  const own = vmi?.metadata.labels ?? vm.spec.template.metadata?.labels ?? {};
  return { ...own, [Label.App]: 'virt-launcher', [Label.VMName]: vmi?.spec.hostname ?? vm.spec.template.spec.hostname ?? name, [Label.VMIID]: name };
}

export function selects(selector: Record<string, string> | undefined, labels: Record<string, string>): boolean {
  const pairs = Object.entries(selector ?? {});
  return pairs.length > 0 && pairs.every(([k, v]) => labels[k] === v);
}

function portText(p: NonNullable<NonNullable<ServiceLike['spec']>['ports']>[number]): string {
  const target = p.targetPort !== undefined && p.targetPort !== p.port ? `→${p.targetPort}` : '';
  const node = p.nodePort ? ` (node ${p.nodePort})` : '';
  return `${p.port}${target}/${p.protocol ?? 'TCP'}${node}`;
}

export function serviceRows(services: ServiceLike[], labels: Record<string, string>): ServiceRow[] {
  return services
    .filter((s) => selects(s.spec?.selector, labels))
    .map((s) => ({ name: s.metadata.name ?? '', type: s.spec?.type ?? 'ClusterIP', clusterIP: s.spec?.clusterIP ?? '—', ports: (s.spec?.ports ?? []).map(portText).join(', ') }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
