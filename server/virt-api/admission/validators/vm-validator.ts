/** VirtualMachine create/update admission (KubeVirt vms-admitter): run strategy, template, template spec. */
import { invalid, notSupported, required, type Cause } from '../cause';
import { isObject, objectAt, textOf } from '../json-shape';
import { RunStrategy } from '../../../../lib/kubevirt/enums';
import { runStrategyOf } from '../../../../lib/kubevirt/run-strategy';
import type { VirtualMachineInstanceSpec } from '../../../../lib/kubevirt/vmi-spec-types';
import { checkSchema } from './schema-check';
import { OBJECT_META_SCHEMA } from './admission-schemas';
import { validateVMISpec } from './vmi-spec-validator';
import { validateMemoryRequired } from './domain-validator';
import { validateLiveUpdateMemory } from '../../../../lib/kubevirt/memory-hotplug';
import type { ValidationContext } from './vmi-validator';

export const RUNNING_AND_RUN_STRATEGY_MESSAGE =
  'Running and RunStrategy are mutually exclusive. Note that Running is deprecated, please use RunStrategy instead';
export const RUN_STRATEGY_REQUIRED_MESSAGE = 'RunStrategy must be specified';
export const MISSING_TEMPLATE_MESSAGE = 'missing virtual machine template.';
const WAIT_AS_RECEIVER_GATE = 'DecentralizedLiveMigration';
const TEMPLATE_FIELD = 'spec.template.spec';

function validateRunStrategy(spec: Record<string, unknown>, ctx: ValidationContext): Cause[] {
  const hasRunning = spec.running !== undefined && spec.running !== null;
  const rs = spec.runStrategy;
  const hasStrategy = rs !== undefined && rs !== null;
  if (hasRunning && hasStrategy) return [invalid('spec.running', RUNNING_AND_RUN_STRATEGY_MESSAGE)];
  if (!hasRunning && !hasStrategy) return [required('spec.runStrategy', RUN_STRATEGY_REQUIRED_MESSAGE)];
  if (hasRunning && typeof spec.running !== 'boolean') {
    return [invalid('spec.running', `spec.running in body must be of type boolean: "${typeof spec.running}"`)];
  }
  const valid = (Object.values(RunStrategy) as unknown[]).includes(rs);
  const gated = rs === RunStrategy.WaitAsReceiver && !ctx.config.featureGates.includes(WAIT_AS_RECEIVER_GATE);
  if (hasStrategy && (!valid || gated)) return [invalid('spec.runStrategy', `Invalid RunStrategy (${textOf(rs)})`)];
  return [];
}

export function validateVM(vm: unknown, oldVM: unknown, ctx: ValidationContext): Cause[] {
  if (!isObject(vm)) return [invalid('', 'object in body must be of type object')];
  const meta = checkSchema(vm.metadata, OBJECT_META_SCHEMA, 'metadata');
  if (meta.length) return meta;
  if (!isObject(vm.spec)) return [required('spec', 'spec: Required value')];
  const restoring = restoreLock(vm, oldVM);
  if (restoring.length) return restoring;
  const causes = validateRunStrategy(vm.spec, ctx);
  const template = vm.spec.template;
  if (!isObject(template)) return [...causes, required('spec.template', MISSING_TEMPLATE_MESSAGE)];
  causes.push(...checkSchema(template.metadata, OBJECT_META_SCHEMA, 'spec.template.metadata'));
  const specCauses = validateVMISpec(template.spec, TEMPLATE_FIELD, ctx.config);
  causes.push(...specCauses);
  const usesInstancetype = isObject(vm.spec.instancetype);
  if (!specCauses.length && !usesInstancetype) {
    causes.push(...validateMemoryRequired(objectAt(template.spec) as unknown as VirtualMachineInstanceSpec, TEMPLATE_FIELD));
  }
  if (!specCauses.length) causes.push(...validateLiveUpdateFeatures(objectAt(template.spec) as unknown as VirtualMachineInstanceSpec, ctx));
  return causes;
}

/** KubeVirt's validateLiveUpdateFeatures (memory): under LiveUpdate a maxGuest must allow memory hotplug. */
function validateLiveUpdateFeatures(spec: VirtualMachineInstanceSpec, ctx: ValidationContext): Cause[] {
  if (ctx.config.vmRolloutStrategy !== 'LiveUpdate') return [];
  const maxGuest = spec.domain?.memory?.maxGuest;
  if (maxGuest === undefined) return [];
  const message = validateLiveUpdateMemory(spec, maxGuest);
  return message ? [invalid(`${TEMPLATE_FIELD}.domain.memory.guest`, message)] : [];
}

/** KubeVirt: while a VirtualMachineRestore writes into the VM (`status.restoreInProgress`), its run strategy stays. */
function restoreLock(vm: Record<string, unknown>, oldVM: unknown): Cause[] {
  if (!isObject(oldVM)) return [];
  const restore = objectAt(oldVM.status).restoreInProgress ?? objectAt(vm.status).restoreInProgress;
  if (typeof restore !== 'string' || !restore) return [];
  const strategy = (o: Record<string, unknown>) => runStrategyOf({ spec: objectAt(o.spec) } as never);
  const before = strategy(oldVM);
  const after = strategy(vm);
  const same = before.ok && after.ok ? before.strategy === after.strategy : before.ok === after.ok;
  return same ? [] : [notSupported('spec', `Cannot update VM runStrategy until restore "${restore}" completes`)];
}
