/**
 * A VM's `spec.dataVolumeTemplates`: each becomes a DataVolume owned by the VM (KubeVirt creates
 * them with the VM, so they fill while it is stopped; deleting the VM deletes them through the
 * garbage collector). A DataVolume of that name owned by someone else is left alone, with an event.
 * A template cloning from another namespace is first authorized for the VM's ServiceAccount (CDI's
 * rule, server/kube/clone-authorization.ts); denied, nothing is created and the VM gets KubeVirt's
 * Failure condition until a later sync finds the permission granted. An existing DataVolume is
 * never re-authorized.
 */
import type { CustomObjectsApi, KubernetesObject } from '@kubernetes/client-node';
import type { VirtualMachine } from '../../../lib/kubevirt';
import { isConflict, messageOf } from '../../kube/api-errors';
import { EventTypeNormal, EventTypeWarning, type EventRecorder } from '../../kube/events';
import { authorizeClone, cloneSourceOf, serviceAccountRequester, vmServiceAccountName, type AccessReview } from '../../kube/clone-authorization';
import { FailureReason } from './constants';
import type { VMSyncError } from './vm-conditions';

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

/** Creates the missing DataVolumes; the sync error for the Failure condition when a clone is not authorized (the VM must not start then). */
export async function ensureDataVolumes(
  deps: { custom: CustomObjectsApi; recorder: Pick<EventRecorder, 'record'>; review: AccessReview },
  vm: VirtualMachine,
  existing: (name: string) => OwnedObject | undefined,
): Promise<VMSyncError | undefined> {
  if (vm.metadata.deletionTimestamp) return undefined;
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
    const source = cloneSourceOf(t.spec?.source as Parameters<typeof cloneSourceOf>[0], namespace);
    if (source) {
      const auth = await authorizeClone(deps.review, serviceAccountRequester(namespace, vmServiceAccountName(vm)), source, namespace);
      if (!auth.allowed) {
        void deps.recorder.record(vm as unknown as KubernetesObject, EventTypeWarning, 'UnauthorizedDataVolumeCreate', `Not authorized to create DataVolume ${name}: ${auth.reason}`);
        return { reason: FailureReason.FailedCreate, message: `Error encountered while creating DataVolumes: not authorized to create DataVolume: ${auth.reason}` };
      }
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
  return undefined;
}
