/**
 * A VM that names an instance type or preference starts with its template expanded (KubeVirt's
 * instancetype controller): the objects are read, a ControllerRevision pins each one as it was at
 * this start (named <vm>-<object>-<uid>-<generation>, owned by the VM), the VM's matcher records
 * that `revisionName`, and the VMI gets the expanded spec. A later edit of the type changes nothing
 * running; the next start picks it up and updates `revisionName`.
 */
import type { AppsV1Api, V1ControllerRevision } from '@kubernetes/client-node';
import { conflictsMessage, expandSpec, type Instancetype, type Preference, type VirtualMachine } from '../../../lib/kubevirt';
import { isConflict } from '../../kube/api-errors';
import type { InstancetypeLookup } from '../../kube/instancetype-lookup';
import { ownerReferenceTo } from './render-vmi';

export interface ExpansionDeps {
  lookup: Pick<InstancetypeLookup, 'instancetype' | 'preference'>;
  apps: Pick<AppsV1Api, 'createNamespacedControllerRevision'>;
  patchVM: (namespace: string, name: string, patch: object) => Promise<unknown>;
}

export class ExpansionError extends Error {}

export const usesInstancetype = (vm: VirtualMachine) => !!vm.spec.instancetype || !!vm.spec.preference;

export function revisionNameOf(vm: VirtualMachine, obj: Instancetype | Preference): string {
  return `${vm.metadata.name}-${obj.metadata.name}-${obj.metadata.uid}-${obj.metadata.generation ?? 1}`;
}

async function pin(deps: ExpansionDeps, vm: VirtualMachine, obj: Instancetype | Preference): Promise<string> {
  const name = revisionNameOf(vm, obj);
  const body = {
    apiVersion: 'apps/v1', kind: 'ControllerRevision',
    metadata: { name, namespace: vm.metadata.namespace, ownerReferences: [ownerReferenceTo(vm)], labels: { 'instancetype.kubevirt.io/object-kind': obj.kind ?? '' } },
    data: { apiVersion: obj.apiVersion, kind: obj.kind, metadata: { name: obj.metadata.name, uid: obj.metadata.uid, generation: obj.metadata.generation }, spec: obj.spec },
    revision: obj.metadata.generation ?? 1,
  };
  try {
    await deps.apps.createNamespacedControllerRevision({ namespace: vm.metadata.namespace ?? 'default', body: body as unknown as V1ControllerRevision });
  } catch (err) {
    if (!isConflict(err)) throw err;
  }
  return name;
}

/** The VM as it starts: template expanded, revisions pinned and recorded on the VM. */
export async function expandForStart(deps: ExpansionDeps, vm: VirtualMachine): Promise<VirtualMachine> {
  const namespace = vm.metadata.namespace ?? 'default';
  const it = vm.spec.instancetype ? await deps.lookup.instancetype(vm.spec.instancetype, namespace) : undefined;
  const pref = vm.spec.preference ? await deps.lookup.preference(vm.spec.preference, namespace) : undefined;
  const e = expandSpec('spec.template.spec', vm.spec.template.spec, it?.spec, pref?.spec);
  if (e.conflicts.length) throw new ExpansionError(conflictsMessage(e.conflicts));
  const patch: { instancetype?: object; preference?: object } = {};
  if (it) {
    const revisionName = await pin(deps, vm, it);
    if (vm.spec.instancetype?.revisionName !== revisionName) patch.instancetype = { revisionName };
  }
  if (pref) {
    const revisionName = await pin(deps, vm, pref);
    if (vm.spec.preference?.revisionName !== revisionName) patch.preference = { revisionName };
  }
  if (patch.instancetype || patch.preference) await deps.patchVM(namespace, vm.metadata.name ?? '', { spec: patch });
  const template = vm.spec.template;
  return {
    ...vm,
    spec: { ...vm.spec, template: { metadata: { ...template.metadata, annotations: { ...e.annotations, ...template.metadata?.annotations } }, spec: e.spec } },
  };
}
