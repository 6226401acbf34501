/** Fixture builders for the migration controller's tests (libvmi.New(WithX(...)) style). */
import type { V1Pod } from '@kubernetes/client-node';
import type { VirtualMachineInstance, VirtualMachineInstanceMigration, VMIMigrationState } from '../../../lib/kubevirt';
import { newPod, newVMI, onNode, podRunning, withStatus } from '../vmi/testing-builders';
import { Label } from './constants';

export { onNode, podFailed, podRunning, podTerminating, podUnschedulable } from '../vmi/testing-builders';

type VMIMOption = (m: VirtualMachineInstanceMigration) => void;

export function newVMIM(...opts: VMIMOption[]): VirtualMachineInstanceMigration {
  const m: VirtualMachineInstanceMigration = {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstanceMigration',
    metadata: { name: 'mig', namespace: 'default', uid: 'mig-uid', resourceVersion: '1', creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { vmiName: 'testvmi' },
  };
  for (const o of opts) o(m);
  return m;
}
export const inPhase = (phase: string): VMIMOption => (m) => { m.status = { ...(m.status ?? {}), phase: phase as never }; };
export const deleting = (): VMIMOption => (m) => { m.metadata.deletionTimestamp = '2026-01-01T00:01:00Z'; };
export const withUID = (uid: string, name = uid): VMIMOption => (m) => { m.metadata.uid = uid; m.metadata.name = name; };

/** A Running VMI on `node` with its source Pod in activePods. */
export function runningVMI(node = 'node-1', state?: VMIMigrationState, extra: Partial<NonNullable<VirtualMachineInstance['status']>> = {}): VirtualMachineInstance {
  return newVMI(withStatus({ phase: 'Running', nodeName: node, activePods: { 'src-uid': node }, ...(state ? { migrationState: state } : {}), ...extra }));
}

/** The migration target Pod of `vmim` (ready on `node` unless options say otherwise). */
export function targetPod(vmi: VirtualMachineInstance, vmim: VirtualMachineInstanceMigration, ...opts: ((p: V1Pod) => void)[]): V1Pod {
  const pod = newPod(vmi, (p) => {
    p.metadata!.uid = 'tgt-uid';
    p.metadata!.name = 'virt-launcher-testvmi-tgt';
    p.metadata!.labels = { ...p.metadata!.labels, [Label.MigrationJobUID]: vmim.metadata.uid ?? '' };
  });
  for (const o of opts) o(pod);
  return pod;
}

export const readyOn = (node: string) => [onNode(node), podRunning()];

/** The migrationState the controller writes at hand-off, plus what the handlers add. */
export function handedOff(vmim: VirtualMachineInstanceMigration, more: Partial<VMIMigrationState> = {}): VMIMigrationState {
  return { migrationUid: vmim.metadata.uid, sourceNode: 'node-1', targetNode: 'node-2', sourcePod: 'virt-launcher-testvmi-src', targetPod: 'virt-launcher-testvmi-tgt', ...more };
}
