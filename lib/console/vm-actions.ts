/**
 * Which lifecycle actions a VM's state allows (virt-api's preconditions, §4.3), so the UI only
 * offers what would not be refused — and says why the others are off.
 */
import {
  RunStrategy, VMIConditionType, VMIPhase, hasCondition, isVMIFinal, runStrategyOf,
  type VirtualMachine, type VirtualMachineInstance,
} from '../kubevirt';

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

const isPausedVMI = (vmi?: VirtualMachineInstance) => hasCondition(vmi, VMIConditionType.Paused, 'True');
const isMigratingVMI = (vmi?: VirtualMachineInstance) =>
  !!vmi?.status?.migrationState && !vmi.status.migrationState.completed && !vmi.status.migrationState.failed;

function startBlocker(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, strategy: string | undefined): string | undefined {
  if (vmi && !isVMIFinal(vmi) && vmi.status?.phase !== VMIPhase.Unknown) return 'It is already running';
  if (strategy === RunStrategy.Always || strategy === RunStrategy.Once) return `${strategy} does not support manual start requests`;
  if (strategy === RunStrategy.RerunOnFailure && vmi?.status?.phase === VMIPhase.Failed) return 'RerunOnFailure does not start from a failed state';
  return vm.metadata.deletionTimestamp ? 'It is being deleted' : undefined;
}

function stopBlocker(vmi: VirtualMachineInstance | undefined, strategy: string | undefined): string | undefined {
  const live = !!vmi && !isVMIFinal(vmi);
  // Always/Once: stop flips the strategy to Halted, which also ends a crash loop with no VMI
  if (strategy === RunStrategy.Always || strategy === RunStrategy.Once) return undefined;
  return live ? undefined : 'It is not running';
}

function migrateBlocker(vmi: VirtualMachineInstance | undefined): string | undefined {
  if (vmi?.status?.phase !== VMIPhase.Running) return 'It is not running';
  if (isMigratingVMI(vmi)) return 'A migration is already in progress';
  const c = vmi.status?.conditions?.find((x) => x.type === VMIConditionType.LiveMigratable);
  if (c?.status === 'False') return c.message || c.reason || 'It cannot be live-migrated';
  return undefined;
}

/** Every action with the reason it is unavailable (undefined = offer it). */
export function computeActionAvailability(
  vm: VirtualMachine,
  vmi: VirtualMachineInstance | undefined,
  opts: { canWrite: boolean },
): ActionAvailability {
  if (!opts.canWrite) return Object.fromEntries(VM_ACTIONS.map((a) => [a, VIEW_ONLY])) as ActionAvailability;
  const rs = runStrategyOf(vm);
  const strategy = rs.ok ? rs.strategy : undefined;
  const running = vmi?.status?.phase === VMIPhase.Running;
  const paused = isPausedVMI(vmi);
  const notRunning = running ? undefined : 'It is not running';
  const restartOff = strategy === RunStrategy.Halted || strategy === RunStrategy.Once
    ? `${strategy} does not support manual restart requests`
    : !vmi ? 'It is not running' : undefined;
  return {
    start: startBlocker(vm, vmi, strategy),
    stop: stopBlocker(vmi, strategy),
    forceStop: vmi && !isVMIFinal(vmi) ? undefined : 'It is not running',
    restart: restartOff,
    pause: notRunning ?? (paused ? 'It is already paused' : undefined),
    unpause: notRunning ?? (paused ? undefined : 'It is not paused'),
    softReboot: notRunning ?? (paused ? 'It is paused' : undefined),
    migrate: migrateBlocker(vmi),
    delete: vm.metadata.deletionTimestamp ? 'It is already being deleted' : undefined,
  };
}

/** The actions to offer, in menu order. */
export function allowedActions(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, opts: { canWrite: boolean }): VMAction[] {
  const a = computeActionAvailability(vm, vmi, opts);
  return VM_ACTIONS.filter((k) => a[k] === undefined);
}

/** API path (relative to the API server) and method of an action. */
export function actionRequest(action: VMAction, namespace: string, name: string): { method: 'PUT' | 'DELETE'; path: string; body?: object } {
  const spec = ACTION_SPECS[action];
  const ns = encodeURIComponent(namespace);
  const n = encodeURIComponent(name);
  if (spec.target === 'delete') return { method: 'DELETE', path: `/apis/kubevirt.io/v1/namespaces/${ns}/virtualmachines/${n}` };
  const plural = spec.target === 'vm' ? 'virtualmachines' : 'virtualmachineinstances';
  return { method: 'PUT', path: `/apis/subresources.kubevirt.io/v1/namespaces/${ns}/${plural}/${n}/${spec.sub}`, body: spec.body ?? {} };
}
