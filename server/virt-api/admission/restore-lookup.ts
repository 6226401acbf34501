/**
 * What the VirtualMachineRestore admitter reads: the snapshot and the target VM by name (absent →
 * undefined), and the namespace's restores (one list per restore create; KubeVirt keeps an
 * informer). Any other error is thrown, and the review answers that admission could not decide.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { VirtualMachineRestoreResource, VirtualMachineSnapshotResource } from '../../../lib/kubevirt';
import { CustomResourceClient } from '../../kube/clients';
import { unlessNotFound } from '../../kube/api-errors';
import type { CustomObjectsApi } from '@kubernetes/client-node';
import type { JsonObject } from './json-shape';
import type { RestoreLookups } from './validators/restore-validator';

const orUndefined = async (read: Promise<KubernetesObject>): Promise<JsonObject | undefined> => (await unlessNotFound(read)) as JsonObject | undefined;

export function restoreLookups(custom: CustomObjectsApi, vms: CustomResourceClient<KubernetesObject>): RestoreLookups {
  const snapshots = new CustomResourceClient<KubernetesObject>(custom, VirtualMachineSnapshotResource);
  const restores = new CustomResourceClient<KubernetesObject>(custom, VirtualMachineRestoreResource);
  return {
    getSnapshot: (namespace, name) => orUndefined(snapshots.get(namespace, name)),
    getVM: (namespace, name) => orUndefined(vms.get(namespace, name)),
    listRestores: async (namespace) => ((await restores.list(namespace)).items ?? []) as unknown as JsonObject[],
  };
}
