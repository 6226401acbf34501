/** VirtualMachine mutating webhook (KubeVirt vm-mutator): machine defaults, firmware identity, deprecation warning. */
import { cloneJson, isObject, objectAt, stringAt, type JsonObject } from '../json-shape';
import { checkSchema } from '../validators/schema-check';
import { vmiSpecSchema } from '../validators/admission-schemas';
import { applyMachineDefaults } from './vmi-spec-defaults';
import { randomFirmwareSerial, randomFirmwareUUID } from './firmware-uuid';
import { diffToMutation, NO_MUTATION, type Mutation, type MutationContext } from './mutation';

export const RUNNING_DEPRECATED_WARNING = 'spec.running is deprecated, please use spec.runStrategy instead.';

/** The VM's template spec when it has the VMI spec's shape (else the validating webhook refuses it). */
export function templateSpecOf(vm: JsonObject): JsonObject | undefined {
  const template = objectAt(vm.spec).template;
  if (!isObject(template) || !isObject(template.spec) || !isObject(template.spec.domain)) return undefined;
  return checkSchema(template.spec, vmiSpecSchema(), 'spec.template.spec').length ? undefined : template.spec;
}

function setFirmwareIdentity(spec: JsonObject): void {
  const domain = spec.domain as JsonObject;
  const firmware = isObject(domain.firmware) ? domain.firmware : (domain.firmware = {});
  if (!stringAt(firmware.uuid)) firmware.uuid = randomFirmwareUUID();
  if (!stringAt(firmware.serial)) firmware.serial = randomFirmwareSerial();
}

function warningsOf(vm: unknown): string[] {
  return isObject(vm) && objectAt(vm.spec).running !== undefined && objectAt(vm.spec).running !== null
    ? [RUNNING_DEPRECATED_WARNING] : [];
}

export function mutateVM(vm: unknown, oldVM: unknown, ctx: MutationContext): Mutation {
  const warnings = warningsOf(vm);
  if (!isObject(vm) || !templateSpecOf(vm)) return { ...NO_MUTATION, warnings };
  const out = cloneJson(vm);
  const spec = templateSpecOf(out) as JsonObject;
  applyMachineDefaults(spec, ctx.config);
  if (oldVM === undefined) setFirmwareIdentity(spec);
  return diffToMutation(vm, out, warnings);
}
