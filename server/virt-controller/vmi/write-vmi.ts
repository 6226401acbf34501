/**
 * Writes the controller's view of a VMI: status (once, only if changed, with the resourceVersion
 * as precondition), the `kubevirt.io/nodeName` label, and the foreground-delete finalizer.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { isDeepStrictEqual } from 'node:util';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import type { CustomResourceClient, JsonPatchOperation } from '../../kube/clients';
import type { VMIStatus } from './compute-status';
import { Finalizer, Label, Phase } from './constants';

export type VMIClient = Pick<CustomResourceClient<KubernetesObject>, 'replaceStatus' | 'jsonPatch'>;

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * What the launcher Pod says while the VMI waits in Scheduling (its node once bound, its QoS class)
 * goes out with the next write that matters — the hand-over to Scheduled at the latest — instead
 * of a write of its own for each Pod update.
 */
const DEFERRED_WHILE_SCHEDULING = ['activePods', 'qosClass'] as const;

/** PURE: whether `next` is worth a status write over `current`. */
export function statusNeedsWrite(current: VMIStatus, next: VMIStatus): boolean {
  if (isDeepStrictEqual(current, next)) return false;
  if (current.phase !== Phase.Scheduling || next.phase !== Phase.Scheduling) return true;
  const strip = (s: VMIStatus) => {
    const c: Record<string, unknown> = { ...s };
    for (const k of DEFERRED_WHILE_SCHEDULING) delete c[k];
    return c;
  };
  return !isDeepStrictEqual(strip(current), strip(next));
}

/** PUT …/status when `status` differs enough (statusNeedsWrite); a stale resourceVersion fails with 409 and the key is retried. */
export async function writeStatusIfChanged(vmis: VMIClient, vmi: VirtualMachineInstance, status: VMIStatus): Promise<VirtualMachineInstance> {
  if (!statusNeedsWrite(vmi.status ?? {}, status)) return vmi;
  const { namespace = 'default', name = '' } = vmi.metadata;
  return vmis.replaceStatus(namespace, name, { ...vmi, status } as KubernetesObject) as Promise<VirtualMachineInstance>;
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
 * The node label, before the status write that hands the VMI over (Scheduled): virt-handler acts on
 * that write, and finds the label already there instead of racing our PATCH with its own status
 * write. `base` is the VMI to base the status write on: the patched one when its status is still
 * the one the new status was computed from, else the cached one (whose stale resourceVersion then
 * fails the write with 409 rather than overwrite a newer status). The label is informational for
 * us (virt-handler selects on status.nodeName): a refusal is logged.
 */
export async function labelNodeIfNeeded(vmis: VMIClient, vmi: VirtualMachineInstance, nodeName: string | undefined, onError: (err: unknown) => void): Promise<{ base: VirtualMachineInstance; patched?: VirtualMachineInstance }> {
  const ops = nodeName ? metadataPatch(vmi, { nodeName, finalizer: vmi.metadata.finalizers?.includes(Finalizer.ForegroundDeleteVirtualMachine) ?? false }) : [];
  if (!ops.length) return { base: vmi };
  const { namespace = 'default', name = '' } = vmi.metadata;
  try {
    const patched = (await vmis.jsonPatch(namespace, name, ops)) as VirtualMachineInstance;
    return { base: isDeepStrictEqual(patched.status ?? {}, vmi.status ?? {}) ? patched : vmi, patched };
  } catch (err) {
    onError(err);
    return { base: vmi };
  }
}

/**
 * Finalizer first (it must succeed: thrown errors requeue), then the node label on its own: the
 * label is informational for us (virt-handler selects on status.nodeName), so a refusal is logged.
 */
export async function patchMetadataIfNeeded(vmis: VMIClient, vmi: VirtualMachineInstance, want: { nodeName?: string; finalizer: boolean }, onLabelError: (err: unknown) => void): Promise<VirtualMachineInstance> {
  const { namespace = 'default', name = '' } = vmi.metadata;
  let current = vmi;
  const finalizerOps = metadataPatch(vmi, { finalizer: want.finalizer });
  if (finalizerOps.length) current = (await vmis.jsonPatch(namespace, name, finalizerOps)) as VirtualMachineInstance;
  const labelOps = metadataPatch(current, { nodeName: want.nodeName, finalizer: want.finalizer });
  if (!labelOps.length) return current;
  return (vmis.jsonPatch(namespace, name, labelOps) as Promise<VirtualMachineInstance>).catch((err: unknown) => { onLabelError(err); return current; });
}
