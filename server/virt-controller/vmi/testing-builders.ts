/** Fixture builders for the VMI controller's tests (libvmi.New(WithX(...)) style). */
import type { V1Pod } from '@kubernetes/client-node';
import { renderLauncherPod } from './render-launcher-pod';
import type { VirtualMachineInstance, VMIPhase } from '../../../lib/kubevirt';

type VMIOption = (vmi: VirtualMachineInstance) => void;
type PodOption = (pod: V1Pod) => void;

export function newVMI(...opts: VMIOption[]): VirtualMachineInstance {
  const vmi: VirtualMachineInstance = {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance',
    metadata: { name: 'testvmi', namespace: 'default', uid: 'vmi-uid', resourceVersion: '1' },
    spec: { domain: { memory: { guest: '128Mi' }, devices: {} }, volumes: [{ name: 'root', containerDisk: { image: 'demo' } }] },
  };
  for (const o of opts) o(vmi);
  return vmi;
}
export const withPhase = (phase: VMIPhase): VMIOption => (v) => { v.status = { ...(v.status ?? {}), phase }; };
export const withDeletion = (): VMIOption => (v) => { v.metadata.deletionTimestamp = '2026-01-01T00:00:00Z'; };
export const withImage = (image: string): VMIOption => (v) => { v.spec!.volumes = [{ name: 'root', containerDisk: { image } }]; };
export const withStatus = (s: Partial<NonNullable<VirtualMachineInstance['status']>>): VMIOption => (v) => { v.status = { ...(v.status ?? {}), ...s }; };

export function newPod(vmi: VirtualMachineInstance, ...opts: PodOption[]): V1Pod {
  const pod = renderLauncherPod(vmi);
  pod.metadata!.name = `virt-launcher-${vmi.metadata.name}-abcde`;
  pod.metadata!.uid = 'pod-uid';
  pod.metadata!.creationTimestamp = new Date('2026-01-01T00:00:00Z');
  pod.status = { phase: 'Pending' };
  for (const o of opts) o(pod);
  return pod;
}
export const onNode = (node: string): PodOption => (p) => { p.spec!.nodeName = node; };
export const podRunning = (ready = true): PodOption => (p) => {
  p.status = {
    ...p.status, phase: 'Running', qosClass: 'Burstable',
    conditions: [{ type: 'PodScheduled', status: 'True' }, { type: 'Ready', status: ready ? 'True' : 'False' }],
    containerStatuses: [{ name: 'compute', ready, restartCount: 0, image: 'x', imageID: '', state: { running: { startedAt: new Date() } } }],
  };
};
export const podFailed = (reason = 'Error', message = 'virt-launcher exited (exit code 1)'): PodOption => (p) => {
  p.status = {
    ...p.status, phase: 'Failed',
    containerStatuses: [{ name: 'compute', ready: false, restartCount: 0, image: 'x', imageID: '', state: { terminated: { exitCode: 1, reason, message } } }],
  };
};
export const podUnschedulable = (message: string): PodOption => (p) => {
  p.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message }] };
};
export const podTerminating = (): PodOption => (p) => { p.metadata!.deletionTimestamp = new Date(); };
