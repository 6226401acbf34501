/**
 * Which lifecycle actions a VM's state allows (virt-api's preconditions, §4.3), so the UI only
 * offers what would not be refused — and says why the others are off.
 */
import { resourcePath, subresourcePath, VirtualMachineInstanceResource, VirtualMachineResource } from '../kubevirt/resources';
import {
  VMIConditionType, isVMIFinal, refuseMigrate, refusePause, refuseRestart, refuseSoftReboot, refuseStart, refuseStop, refuseUnpause,
  type Refusal, type VirtualMachine, type VirtualMachineInstance,
} from '../kubevirt';
import type { NamespacePermissions } from './namespace-permissions';

export const VM_ACTIONS = ['start', 'stop', 'forceStop', 'restart', 'pause', 'unpause', 'softReboot', 'migrate', 'delete'] as const;
export type VMAction = (typeof VM_ACTIONS)[number];

export interface ActionSpec {
  label: string;
  /** Asks for confirmation first. */
  destructive: boolean;
  /** Subresource on virtualmachines (vm) or virtualmachineinstances (vmi); delete is a plain DELETE. */
  target: 'vm' | 'vmi' | 'delete';
  sub?: string;
  body?: object;
}

export const ACTION_SPECS: Record<VMAction, ActionSpec> = {
  start: { label: 'Start', destructive: false, target: 'vm', sub: 'start' },
  stop: { label: 'Stop', destructive: true, target: 'vm', sub: 'stop' },
  forceStop: { label: 'Force stop', destructive: true, target: 'vm', sub: 'stop', body: { gracePeriod: 0 } },
  restart: { label: 'Restart', destructive: true, target: 'vm', sub: 'restart' },
  pause: { label: 'Pause', destructive: false, target: 'vmi', sub: 'pause' },
  unpause: { label: 'Unpause', destructive: false, target: 'vmi', sub: 'unpause' },
  softReboot: { label: 'Soft reboot', destructive: true, target: 'vmi', sub: 'softreboot' },
  migrate: { label: 'Migrate', destructive: false, target: 'vm', sub: 'migrate' },
  delete: { label: 'Delete', destructive: true, target: 'delete' },
};

/** `undefined` = allowed; otherwise the reason it is not. */
export type ActionAvailability = Record<VMAction, string | undefined>;

const VIEW_ONLY = 'Your sign-in is view-only';

const isMigratingVMI = (vmi?: VirtualMachineInstance) =>
  !!vmi?.status?.migrationState && !vmi.status.migrationState.completed && !vmi.status.migrationState.failed;

/** what the console adds to virt-api's own refusal of a migrate (the VMIM admission refuses these) */
function migrateBlocker(vmi: VirtualMachineInstance | undefined): string | undefined {
  const refused = refuseMigrate(vmi);
  if (refused) return refused.code === 404 ? 'VM is not running' : refused.message;
  if (isMigratingVMI(vmi)) return 'A migration is already in progress';
  const c = vmi?.status?.conditions?.find((x) => x.type === VMIConditionType.LiveMigratable);
  if (c?.status === 'False') return c.message || c.reason || 'It cannot be live-migrated';
  return undefined;
}

/** a VMI subresource's refusal; no VMI at all is "not running" (virt-api answers 404) */
const onVMI = (vmi: VirtualMachineInstance | undefined, rule: (v: VirtualMachineInstance) => Refusal | undefined) =>
  vmi ? rule(vmi)?.message : 'VM is not running';

/**
 * Every action with the reason it is unavailable (undefined = offer it): virt-api's own refusals
 * (lib/kubevirt/lifecycle-rules.ts, the same messages), plus the few things the console knows
 * better before asking (a VM being deleted, a migration the VMIM admission would refuse).
 */
export function computeActionAvailability(
  vm: VirtualMachine,
  vmi: VirtualMachineInstance | undefined,
  opts: ActionRights,
): ActionAvailability {
  if ('canWrite' in opts && !opts.canWrite) return Object.fromEntries(VM_ACTIONS.map((a) => [a, VIEW_ONLY])) as ActionAvailability;
  const byState = availabilityByState(vm, vmi);
  if (!('permissions' in opts)) return byState;
  const p = opts.permissions;
  return Object.fromEntries(VM_ACTIONS.map((a) => [a, p.actions[a] ? byState[a] : denied(a, p.namespace)])) as ActionAvailability;
}

/** The user's rights: one answer for the whole cluster, or those of the VM's namespace. */
export type ActionRights = { canWrite: boolean } | { permissions: NamespacePermissions };

/** The reason shown on an action RBAC does not allow in the namespace. */
export const denied = (a: VMAction, namespace: string) => `You may not ${ACTION_SPECS[a].label.toLowerCase()} VMs in namespace ${namespace}`;

function availabilityByState(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined): ActionAvailability {
  const deleting = vm.metadata.deletionTimestamp ? 'It is being deleted' : undefined;
  return {
    start: refuseStart(vm, vmi)?.message ?? deleting,
    stop: refuseStop(vm, vmi)?.message,
    forceStop: vmi && !isVMIFinal(vmi) ? refuseStop(vm, vmi, 0)?.message : 'VM is not running',
    restart: refuseRestart(vm, vmi)?.message,
    pause: onVMI(vmi, refusePause),
    unpause: onVMI(vmi, (v) => refuseUnpause(v, vm)),
    softReboot: onVMI(vmi, refuseSoftReboot),
    migrate: migrateBlocker(vmi),
    delete: deleting ? 'It is already being deleted' : undefined,
  };
}

/** The actions to offer, in menu order. */
export function allowedActions(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, opts: ActionRights): VMAction[] {
  const a = computeActionAvailability(vm, vmi, opts);
  return VM_ACTIONS.filter((k) => a[k] === undefined);
}

/** API path (relative to the API server) and method of an action. */
export function actionRequest(action: VMAction, namespace: string, name: string): { method: 'PUT' | 'DELETE'; path: string; body?: object } {
  const spec = ACTION_SPECS[action];
  if (spec.target === 'delete') return { method: 'DELETE', path: resourcePath(VirtualMachineResource, { namespace, name }) };
  const r = spec.target === 'vm' ? VirtualMachineResource : VirtualMachineInstanceResource;
  return { method: 'PUT', path: subresourcePath(r, namespace, name, spec.sub ?? action), body: spec.body ?? {} };
}
