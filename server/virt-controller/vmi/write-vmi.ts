/**
 * Writes the controller's view of a VMI: status (once, only if changed, with the resourceVersion
 * as precondition), the `kubevirt.io/nodeName` label, and the foreground-delete finalizer.
 */
import { isDeepStrictEqual } from 'node:util';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import type { CustomResourceClient, JsonPatchOperation } from '../../kube/clients';
import type { VMIStatus } from './compute-status';
import { Finalizer, Label } from './constants';

export type VMIClient = Pick<CustomResourceClient<any>, 'replaceStatus' | 'jsonPatch'>;

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** PUT …/status when `status` differs; a stale resourceVersion fails with 409 and the key is retried. */
export async function writeStatusIfChanged(vmis: VMIClient, vmi: VirtualMachineInstance, status: VMIStatus): Promise<VirtualMachineInstance> {
  if (isDeepStrictEqual(vmi.status ?? {}, status)) return vmi;
  const { namespace = 'default', name = '' } = vmi.metadata;
  return vmis.replaceStatus(namespace, name, { ...vmi, status }) as Promise<VirtualMachineInstance>;
}

/**
 * PURE: JSON patch ops that bring the node label and our finalizer in line. Guards are narrow, so
 * concurrent status writes (virt-handler's) do not fail them: the finalizer ops test the finalizer
 * list they were computed from (or the resourceVersion when there is no list yet); a label add is
 * idempotent and needs no guard.
 */
export function metadataPatch(vmi: VirtualMachineInstance, want: { nodeName?: string; finalizer: boolean }): JsonPatchOperation[] {
  const ops: JsonPatchOperation[] = [];
  const labels = vmi.metadata.labels;
  if (want.nodeName && labels?.[Label.NodeName] !== want.nodeName) {
    ops.push(labels
      ? { op: 'add', path: `/metadata/labels/${escapePointer(Label.NodeName)}`, value: want.nodeName }
      : { op: 'add', path: '/metadata/labels', value: { [Label.NodeName]: want.nodeName } });
  }
  const finalizers = vmi.metadata.finalizers;
  const has = finalizers?.includes(Finalizer.ForegroundDeleteVirtualMachine) ?? false;
  if (want.finalizer === has) return ops;
  const guard: JsonPatchOperation = finalizers
    ? { op: 'test', path: '/metadata/finalizers', value: finalizers }
    : { op: 'test', path: '/metadata/resourceVersion', value: vmi.metadata.resourceVersion };
  const next = want.finalizer ? [...(finalizers ?? []), Finalizer.ForegroundDeleteVirtualMachine] : (finalizers ?? []).filter((f) => f !== Finalizer.ForegroundDeleteVirtualMachine);
  return [...ops, guard, { op: 'add', path: '/metadata/finalizers', value: next }];
}

/**
 * Finalizer first (it must succeed: thrown errors requeue), then the node label on its own: the
 * label is informational for us (virt-handler selects on status.nodeName), so a refusal is logged.
 */
export async function patchMetadataIfNeeded(vmis: VMIClient, vmi: VirtualMachineInstance, want: { nodeName?: string; finalizer: boolean }, onLabelError: (err: unknown) => void): Promise<void> {
  const { namespace = 'default', name = '' } = vmi.metadata;
  let current = vmi;
  const finalizerOps = metadataPatch(vmi, { finalizer: want.finalizer });
  if (finalizerOps.length) current = (await vmis.jsonPatch(namespace, name, finalizerOps)) as VirtualMachineInstance;
  const labelOps = metadataPatch(current, { nodeName: want.nodeName, finalizer: want.finalizer });
  if (labelOps.length) await vmis.jsonPatch(namespace, name, labelOps).catch(onLabelError);
}
