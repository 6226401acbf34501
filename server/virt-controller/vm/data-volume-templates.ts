/**
 * A VM's `spec.dataVolumeTemplates`: each becomes a DataVolume owned by the VM (KubeVirt creates
 * them with the VM, so they fill while it is stopped; deleting the VM deletes them through the
 * garbage collector). A DataVolume of that name owned by someone else is left alone, with an event.
 */
import type { CustomObjectsApi, KubernetesObject } from '@kubernetes/client-node';
import type { VirtualMachine } from '../../../lib/kubevirt';
import { isConflict, messageOf } from '../../kube/api-errors';
import { EventTypeNormal, EventTypeWarning, type EventRecorder } from '../../kube/events';

export const CDI_API = { group: 'cdi.kubevirt.io', version: 'v1beta1', plural: 'datavolumes' } as const;

interface OwnedObject { metadata?: { name?: string; ownerReferences?: { uid?: string; controller?: boolean }[] } }

/** PURE: the DataVolume for one template of `vm`. */
export function renderDataVolume(vm: VirtualMachine, template: NonNullable<VirtualMachine['spec']['dataVolumeTemplates']>[number]): Record<string, unknown> {
  return {
    apiVersion: `${CDI_API.group}/${CDI_API.version}`,
    kind: 'DataVolume',
    metadata: {
      ...(template.metadata ?? {}),
      namespace: vm.metadata.namespace,
      ownerReferences: [{ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', name: vm.metadata.name ?? '', uid: vm.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
    },
    spec: template.spec,
  };
}

export async function ensureDataVolumes(
  deps: { custom: CustomObjectsApi; recorder: Pick<EventRecorder, 'record'> },
  vm: VirtualMachine,
  existing: (name: string) => OwnedObject | undefined,
): Promise<void> {
  if (vm.metadata.deletionTimestamp) return;
  const namespace = vm.metadata.namespace ?? 'default';
  for (const t of vm.spec?.dataVolumeTemplates ?? []) {
    const name = t.metadata?.name;
    if (!name) continue;
    const dv = existing(name);
    if (dv) {
      const owned = dv.metadata?.ownerReferences?.some((r) => r.controller && r.uid === vm.metadata.uid);
      if (!owned) void deps.recorder.record(vm as unknown as KubernetesObject, EventTypeWarning, 'FailedDataVolumeCreate', `DataVolume ${name} already exists and is not owned by this VirtualMachine`);
      continue;
    }
    try {
      await deps.custom.createNamespacedCustomObject({ ...CDI_API, namespace, body: renderDataVolume(vm, t) });
      void deps.recorder.record(vm as unknown as KubernetesObject, EventTypeNormal, 'SuccessfulDataVolumeCreate', `Created DataVolume ${name}`);
    } catch (err) {
      if (isConflict(err)) continue;
      void deps.recorder.record(vm as unknown as KubernetesObject, EventTypeWarning, 'FailedDataVolumeCreate', `Error creating DataVolume ${name}: ${messageOf(err)}`);
      throw err;
    }
  }
}
