/** VirtualMachineInstance mutating webhook (KubeVirt vmi-mutator): defaults on create, status guard on update. */
import { cloneJson, isObject, objectAt, stringAt, type JsonObject } from '../json-shape';
import { isKubeVirtServiceAccount } from '../admission-config';
import { checkSchema } from '../validators/schema-check';
import { OBJECT_META_SCHEMA, vmiSpecSchema } from '../validators/admission-schemas';
import { Finalizer } from '../../../../lib/kubevirt/labels';
import { applyVMISpecDefaults } from './vmi-spec-defaults';
import { randomFirmwareUUID, stableFirmwareUUID } from './firmware-uuid';
import { addFinalizer, diffToMutation, NO_MUTATION, type Mutation, type MutationContext } from './mutation';
import { applyPresets, type PresetLike } from './preset-merge';

const VM_KIND = 'VirtualMachine';

function ownerVMName(meta: JsonObject): string | undefined {
  const refs = Array.isArray(meta.ownerReferences) ? meta.ownerReferences : [];
  const vmRef = refs.find((r) => isObject(r) && r.kind === VM_KIND && r.controller === true);
  return isObject(vmRef) ? stringAt(vmRef.name) : undefined;
}

function setFirmwareUUID(vmi: JsonObject): void {
  const firmware = objectAt(objectAt(vmi.spec).domain).firmware as JsonObject;
  if (stringAt(firmware.uuid)) return;
  const vmName = ownerVMName(objectAt(vmi.metadata));
  firmware.uuid = vmName ? stableFirmwareUUID(vmName) : randomFirmwareUUID();
}

function setInitialStatus(vmi: JsonObject, now: Date): void {
  const spec = objectAt(vmi.spec);
  const domain = objectAt(spec.domain);
  const status = isObject(vmi.status) ? vmi.status : (vmi.status = {});
  status.phase = 'Pending';
  status.phaseTransitionTimestamps = [{ phase: 'Pending', phaseTransitionTimestamp: now.toISOString() }];
  const guest = objectAt(domain.memory).guest;
  if (guest !== undefined) status.memory = { guestAtBoot: guest, guestCurrent: guest, guestRequested: guest };
  const cpu = objectAt(domain.cpu);
  status.currentCPUTopology = { sockets: cpu.sockets, cores: cpu.cores, threads: cpu.threads };
}

export interface VMICreateContext extends MutationContext {
  /** the VirtualMachineInstancePresets of the VMI's namespace */
  presets?: PresetLike[];
  /** a matching preset was skipped: KubeVirt's "Unable to apply VirtualMachineInstancePreset" */
  onPresetSkipped?: (message: string) => void;
}

export function mutateVMICreate(vmi: unknown, ctx: VMICreateContext): Mutation {
  if (!isObject(vmi) || !isObject(vmi.spec) || !isObject(vmi.spec.domain)) return NO_MUTATION;
  if (checkSchema(vmi.spec, vmiSpecSchema(), 'spec').length || checkSchema(vmi.metadata, OBJECT_META_SCHEMA, 'metadata').length) {
    return NO_MUTATION;
  }
  const out = cloneJson(vmi);
  // presets first, so the defaults never make a preset conflict
  const presets = applyPresets(out, ctx.presets ?? []);
  if (presets.refused) return { ...NO_MUTATION, refused: presets.refused };
  for (const m of presets.skipped) ctx.onPresetSkipped?.(m);
  applyVMISpecDefaults(out.spec as JsonObject, ctx.config);
  setFirmwareUUID(out);
  setInitialStatus(out, ctx.now);
  addFinalizer(isObject(out.metadata) ? out.metadata : (out.metadata = {}), Finalizer.ForegroundDeleteVirtualMachine);
  return diffToMutation(vmi, out, [...presets.partial, ...presets.skipped]);
}

/** Users other than KubeVirt's components cannot change a VMI's status: their change is silently reverted. */
export function mutateVMIUpdate(vmi: unknown, oldVMI: unknown, ctx: MutationContext): Mutation {
  if (!isObject(vmi) || !isObject(oldVMI)) return NO_MUTATION;
  if (isKubeVirtServiceAccount(ctx.config, ctx.user?.username)) return NO_MUTATION;
  const out = cloneJson(vmi);
  if (oldVMI.status === undefined) delete out.status;
  else out.status = cloneJson(oldVMI.status);
  return diffToMutation(vmi, out);
}
