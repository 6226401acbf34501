/**
 * Writes the VM controller's view: the VM status (once per sync, only if changed, resourceVersion
 * as precondition) and finalizers on the VM and its VMI (JSON patches guarded by a `test` op).
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject, VirtualMachine, VirtualMachineStatus } from '../../../lib/kubevirt';
import type { CustomResourceClient, JsonPatchOperation } from '../../kube/clients';
import { Finalizer } from './constants';

type Client = Pick<CustomResourceClient<KubernetesObject>, 'replaceStatus' | 'jsonPatch'>;

const normalize = (v: unknown) => JSON.parse(JSON.stringify(v ?? {}));

export function isStatusChanged(vm: VirtualMachine, status: VirtualMachineStatus): boolean {
  return !isDeepStrictEqual(normalize(vm.status), normalize(status));
}

export async function writeVMStatusIfChanged(vms: Client, vm: VirtualMachine, status: VirtualMachineStatus): Promise<VirtualMachine> {
  if (!isStatusChanged(vm, status)) return vm;
  const { namespace = 'default', name = '' } = vm.metadata;
  return vms.replaceStatus(namespace, name, { ...vm, status } as KubernetesObject) as Promise<VirtualMachine>;
}

/** PURE: the patch that adds or removes the VM controller's finalizer; empty when nothing changes. */
export function finalizerPatch(obj: KubeObject, want: boolean): JsonPatchOperation[] {
  const finalizers = obj.metadata.finalizers;
  const has = !!finalizers?.includes(Finalizer.VirtualMachineController);
  if (has === want) return [];
  const guard: JsonPatchOperation = { op: 'test', path: '/metadata/resourceVersion', value: obj.metadata.resourceVersion };
  if (want) {
    return [guard, finalizers
      ? { op: 'add', path: '/metadata/finalizers/-', value: Finalizer.VirtualMachineController }
      : { op: 'add', path: '/metadata/finalizers', value: [Finalizer.VirtualMachineController] }];
  }
  return [guard, { op: 'replace', path: '/metadata/finalizers', value: finalizers!.filter((f) => f !== Finalizer.VirtualMachineController) }];
}

/** Returns the object as written (or as given when nothing changed). */
export async function setFinalizer<T extends KubeObject>(client: Client, obj: T, want: boolean): Promise<T> {
  const ops = finalizerPatch(obj, want);
  if (!ops.length) return obj;
  return client.jsonPatch(obj.metadata.namespace ?? 'default', obj.metadata.name ?? '', ops) as Promise<T>;
}

/** PURE: flip a Halted VM to running, the way its spec says it (runStrategy or the legacy `running`). */
export function setRunningPatch(vm: VirtualMachine): JsonPatchOperation[] {
  if (vm.spec.running !== undefined) {
    return [{ op: 'test', path: '/spec/running', value: vm.spec.running }, { op: 'replace', path: '/spec/running', value: true }];
  }
  return [{ op: 'test', path: '/spec/runStrategy', value: vm.spec.runStrategy }, { op: 'replace', path: '/spec/runStrategy', value: 'Always' }];
}
