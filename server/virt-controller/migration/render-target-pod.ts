/**
 * PURE: the migration target launcher Pod: the VMI's own launcher Pod (same renderer), plus label
 * `kubevirt.io/migrationJobUID`, annotation `kubevirt.io/migrationJobName`, a required anti-affinity
 * to the Pods of the same VMI on `kubernetes.io/hostname` (never the source node), and the VMIM's
 * `addedNodeSelector` merged under the VMI's own selector (the VMI's keys win).
 */
import type { V1Affinity, V1Pod, V1PodAffinityTerm } from '@kubernetes/client-node';
import type { VirtualMachineInstance, VirtualMachineInstanceMigration } from '../../../lib/kubevirt';
import { renderLauncherPod, type RenderOptions } from '../vmi/render-launcher-pod';
import { Annotation, Label } from './constants';

export const HOSTNAME_TOPOLOGY_KEY = 'kubernetes.io/hostname';

function antiAffinityToSource(vmi: VirtualMachineInstance): V1PodAffinityTerm {
  return {
    labelSelector: { matchExpressions: [{ key: Label.CreatedBy, operator: 'In', values: [vmi.metadata.uid ?? ''] }] },
    topologyKey: HOSTNAME_TOPOLOGY_KEY,
  };
}

function withAntiAffinity(affinity: V1Affinity | undefined, term: V1PodAffinityTerm): V1Affinity {
  const anti = affinity?.podAntiAffinity ?? {};
  const required = anti.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  return { ...(affinity ?? {}), podAntiAffinity: { ...anti, requiredDuringSchedulingIgnoredDuringExecution: [...required, term] } };
}

export function renderTargetPod(vmi: VirtualMachineInstance, vmim: VirtualMachineInstanceMigration, opts: RenderOptions = {}): V1Pod {
  const pod = renderLauncherPod(vmi, opts);
  const meta = pod.metadata!;
  const { [Label.NodeName]: _node, [Label.MigrationTargetNodeName]: _target, ...labels } = meta.labels ?? {};
  meta.labels = { ...labels, [Label.MigrationJobUID]: vmim.metadata.uid ?? '' };
  meta.annotations = { ...meta.annotations, [Annotation.MigrationJobName]: vmim.metadata.name ?? '' };
  const spec = pod.spec!;
  spec.nodeSelector = { ...(vmim.spec.addedNodeSelector ?? {}), ...(spec.nodeSelector ?? {}) };
  spec.affinity = withAntiAffinity(spec.affinity, antiAffinityToSource(vmi));
  return pod;
}
