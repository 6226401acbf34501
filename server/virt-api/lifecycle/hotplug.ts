/**
 * addvolume / removevolume on VMs and VMIs (KubeVirt's volume hotplug subresources). On a VMI the
 * request changes the VMI's spec (the disk comes and goes with this run); on a VM it is persisted
 * in the VM's template and, when the VM runs, applied to its VMI too. Each write carries `test`
 * operations on what was read, so a concurrent change is a 409, never a lost update.
 */
import type { CustomObjectsApi } from '@kubernetes/client-node';
import {
  applyVolumeRequest, KUBEVIRT_GROUP, KUBEVIRT_VERSION, parseAddVolumeOptions, parseRemoveVolumeOptions, verifyVolumeRequest,
  type VirtualMachine, type VirtualMachineInstance, type VolumeRequest,
} from '../../../lib/kubevirt';
import { jsonPatch } from '../../kube/clients';
import { statusCodeOf, messageOf } from '../../kube/api-errors';
import { badRequest, conflict, internal, VMI_RESOURCE, VM_RESOURCE } from '../api-error';

export const VMI_NOT_RUNNING = 'VMI is not running';

export function parseVolumeRequest(kind: 'add' | 'remove', body: unknown): VolumeRequest {
  const parsed = kind === 'add' ? parseAddVolumeOptions(body) : parseRemoveVolumeOptions(body);
  if ('error' in parsed) throw badRequest(parsed.error);
  return kind === 'add' ? { addVolumeOptions: parsed as Exclude<ReturnType<typeof parseAddVolumeOptions>, { error: string }> } : { removeVolumeOptions: parsed };
}

const dryRunOf = (req: VolumeRequest) => (req.addVolumeOptions ?? req.removeVolumeOptions)?.dryRun?.[0] === 'All' ? 'All' : undefined;

type Spec = Parameters<typeof applyVolumeRequest>[0];

function specPatch(prefix: string, spec: Spec, next: Spec): object[] {
  const ops: object[] = [];
  const pair = (path: string, before: unknown, after: unknown) => {
    if (before === undefined) ops.push({ op: 'add', path, value: after });
    else ops.push({ op: 'test', path, value: before }, { op: 'replace', path, value: after });
  };
  if (spec.domain.devices === undefined) ops.push({ op: 'add', path: `${prefix}/domain/devices`, value: {} });
  pair(`${prefix}/volumes`, spec.volumes, next.volumes);
  pair(`${prefix}/domain/devices/disks`, spec.domain.devices?.disks, next.domain.devices?.disks);
  return ops;
}

async function patch(custom: CustomObjectsApi, plural: string, namespace: string, name: string, ops: object[], dryRun: string | undefined, resource: string): Promise<void> {
  try {
    await custom.patchNamespacedCustomObject({ group: KUBEVIRT_GROUP, version: KUBEVIRT_VERSION, plural, namespace, name, body: ops, dryRun }, jsonPatch);
  } catch (err) {
    const code = statusCodeOf(err);
    if (code === 409 || code === 422) throw conflict(resource, name, 'the object has been modified; please apply your changes to the latest version and try again');
    throw internal(`unable to patch ${plural === 'virtualmachines' ? 'vm' : 'vmi'}: ${messageOf(err)}`);
  }
}

export async function requestOnVMI(custom: CustomObjectsApi, vmi: VirtualMachineInstance, req: VolumeRequest): Promise<void> {
  const name = vmi.metadata.name ?? '';
  if (vmi.status?.phase !== 'Running') throw conflict(VMI_RESOURCE, name, VMI_NOT_RUNNING);
  const problem = verifyVolumeRequest(vmi.spec.volumes, req);
  if (problem) throw conflict(VMI_RESOURCE, name, problem);
  const next = applyVolumeRequest(vmi.spec, req);
  await patch(custom, 'virtualmachineinstances', vmi.metadata.namespace ?? 'default', name, specPatch('/spec', vmi.spec, next), dryRunOf(req), VMI_RESOURCE);
}

export async function requestOnVM(custom: CustomObjectsApi, vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, req: VolumeRequest): Promise<void> {
  const name = vm.metadata.name ?? '';
  const template = vm.spec.template?.spec;
  if (!template) throw badRequest('the VM has no template');
  const problem = verifyVolumeRequest(template.volumes, req);
  if (problem) throw conflict(VM_RESOURCE, name, problem);
  const next = applyVolumeRequest(template, req);
  await patch(custom, 'virtualmachines', vm.metadata.namespace ?? 'default', name, specPatch('/spec/template/spec', template, next), dryRunOf(req), VM_RESOURCE);
  // the running VMI gets the change too, unless it already has it (a retried request)
  if (vmi?.status?.phase === 'Running' && !verifyVolumeRequest(vmi.spec.volumes, req)) await requestOnVMI(custom, vmi, req);
}
