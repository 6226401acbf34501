/** Fixture builders for tests (KubeVirt's libvmi style): `newVM(withRunStrategy('Always'))`. */
import type { Condition } from './meta';
import type { VirtualMachine } from './vm-types';
import type { VirtualMachineInstance } from './vmi-types';

type Opt<T> = (o: T) => void;

export function newVM(...opts: Opt<VirtualMachine>[]): VirtualMachine {
  const vm: VirtualMachine = {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine',
    metadata: { name: 'vm1', namespace: 'default', uid: 'vm-uid' },
    spec: { runStrategy: 'Always', template: { spec: { domain: { devices: {} } } } },
  };
  opts.forEach((o) => o(vm));
  return vm;
}

export function newVMI(...opts: Opt<VirtualMachineInstance>[]): VirtualMachineInstance {
  const vmi: VirtualMachineInstance = {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance',
    metadata: { name: 'vm1', namespace: 'default', uid: 'vmi-uid' },
    spec: { domain: { devices: {} } },
    status: {},
  };
  opts.forEach((o) => o(vmi));
  return vmi;
}

export const withPhase = (phase: NonNullable<VirtualMachineInstance['status']>['phase']): Opt<VirtualMachineInstance> =>
  (vmi) => { vmi.status = { ...vmi.status, phase }; };

export const withCondition = (c: Condition): Opt<VirtualMachineInstance> =>
  (vmi) => { vmi.status = { ...vmi.status, conditions: [...(vmi.status?.conditions ?? []), c] }; };

export const withVMIDeleted: Opt<VirtualMachineInstance> = (vmi) => { vmi.metadata.deletionTimestamp = '2026-01-01T00:00:00Z'; };

export const withMigration = (startTimestamp?: string, endTimestamp?: string): Opt<VirtualMachineInstance> =>
  (vmi) => { vmi.status = { ...vmi.status, migrationState: { startTimestamp, endTimestamp } }; };

export const withRunStrategy = (rs: VirtualMachine['spec']['runStrategy']): Opt<VirtualMachine> =>
  (vm) => { vm.spec.runStrategy = rs; delete vm.spec.running; };

export const withRunning = (running: boolean): Opt<VirtualMachine> =>
  (vm) => { vm.spec.running = running; delete vm.spec.runStrategy; };

export const withVMDeleted: Opt<VirtualMachine> = (vm) => { vm.metadata.deletionTimestamp = '2026-01-01T00:00:00Z'; };

export const withStartFailures = (n: number): Opt<VirtualMachine> =>
  (vm) => { vm.status = { ...vm.status, startFailure: { consecutiveFailCount: n } }; };

export const withRequests = (...reqs: NonNullable<NonNullable<VirtualMachine['status']>['stateChangeRequests']>): Opt<VirtualMachine> =>
  (vm) => { vm.status = { ...vm.status, stateChangeRequests: reqs }; };

export const withDataVolume = (name: string): Opt<VirtualMachine> =>
  (vm) => { vm.spec.template.spec.volumes = [...(vm.spec.template.spec.volumes ?? []), { name, dataVolume: { name } }]; };

export const withPVC = (name: string): Opt<VirtualMachine> =>
  (vm) => { vm.spec.template.spec.volumes = [...(vm.spec.template.spec.volumes ?? []), { name, persistentVolumeClaim: { claimName: name } }]; };
