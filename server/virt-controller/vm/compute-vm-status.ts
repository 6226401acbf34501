/**
 * PURE: the VM status the controller wants (KubeVirt's updateStatus): runs after sync, even when
 * sync failed; the caller writes it once, only if it differs from what is stored.
 */
import { Annotation, VMIConditionType, computePrintableStatus, hasCondition, runStrategyOf } from '../../../lib/kubevirt';
import type { PrintableStatusContext } from '../../../lib/kubevirt/printable-status';
import type { VirtualMachine, VirtualMachineInstance, VirtualMachineStatus } from '../../../lib/kubevirt';
import { computeStartFailure, type BackoffSettings } from './start-failure';
import { trimStateChangeRequests } from './state-change-requests';
import { computeVMConditions, type VMSyncError } from './vm-conditions';

export interface VMStatusInputs {
  now: Date;
  /** In [0, 1): the backoff jitter. */
  random: number;
  backoff?: BackoffSettings;
  syncError?: VMSyncError;
  /** the RestartRequired condition's message, or false */
  restartRequired: string | false;
  creationExpected: boolean;
  deletionExpected: boolean;
  /** the namespace's DataVolumes and claims (printable status: Provisioning, DataVolumeError, WaitingForVolumeBinding) */
  dataVolumes?: PrintableStatusContext['dataVolumes'];
  persistentVolumeClaims?: PrintableStatusContext['persistentVolumeClaims'];
}

function generationOf(vmi: VirtualMachineInstance): number | undefined {
  const n = Number(vmi.metadata.annotations?.[Annotation.VMGeneration]);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** Drops undefined members so the result compares equal to the stored JSON. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export function computeVMStatus(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, inputs: VMStatusInputs): VirtualMachineStatus {
  const old = vm.status ?? {};
  const rs = runStrategyOf(vm);
  const status: VirtualMachineStatus = {
    ...old,
    created: vmi ? true : undefined,
    ready: vmi && hasCondition(vmi, VMIConditionType.Ready, 'True') ? true : undefined,
    stateChangeRequests: trimStateChangeRequests(vm, vmi),
    startFailure: computeStartFailure(vm, vmi, inputs),
    runStrategy: vmi && rs.ok ? rs.strategy : old.runStrategy,
    observedGeneration: vmi ? generationOf(vmi) ?? old.observedGeneration : old.observedGeneration,
    desiredGeneration: vm.metadata.generation ?? old.desiredGeneration,
    conditions: computeVMConditions(vm, vmi, inputs),
  };
  const withStatus: VirtualMachine = { ...vm, status };
  status.printableStatus = computePrintableStatus(withStatus, vmi, {
    now: inputs.now, creationExpected: inputs.creationExpected, deletionExpected: inputs.deletionExpected,
    dataVolumes: inputs.dataVolumes, persistentVolumeClaims: inputs.persistentVolumeClaims,
  });
  return compact(status);
}
