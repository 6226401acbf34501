import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { computePodStatus, isPodStatusChanged, podPhase } from './pod-status';
import type { PodRuntime } from './pod-runtime';
import { makePod, withPodSpec } from './testing-builders';

const rt = (over: Partial<PodRuntime> = {}): PodRuntime => ({ uid: 'u', key: 'default/p', container: 'c', dir: '/x', restartCount: 0, pid: 42, startedAt: '2024-01-01T00:00:00Z', ...over });
const exited = (exitCode: number) => rt({ exit: { exitCode, reason: exitCode ? 'Error' : 'Completed', finishedAt: '2024-01-01T00:01:00Z' } });
const withPolicy = (restartPolicy: string) => makePod('p', withPodSpec({ restartPolicy }));

describe('podPhase', () => {
  it.each<[string, V1Pod, PodRuntime | undefined, boolean, string]>([
    ['not started yet', withPolicy('Never'), undefined, false, 'Pending'],
    ['running', withPolicy('Never'), rt(), true, 'Running'],
    ['Never, exit 0', withPolicy('Never'), exited(0), false, 'Succeeded'],
    ['Never, exit 1', withPolicy('Never'), exited(1), false, 'Failed'],
    ['OnFailure, exit 0', withPolicy('OnFailure'), exited(0), false, 'Succeeded'],
    ['OnFailure, exit 1 (will restart)', withPolicy('OnFailure'), exited(1), false, 'Running'],
    ['Always, exit 0 (will restart)', withPolicy('Always'), exited(0), false, 'Running'],
  ])('%s → %s', (_l, pod, runtime, running, phase) => {
    expect(podPhase(pod, runtime, running)).toBe(phase);
  });
});

describe('computePodStatus', () => {
  it('startTime is when the kubelet took the Pod in, also when its first status write comes only with Running', () => {
    const s = computePodStatus(withPolicy('Never'), rt({ acknowledgedAt: '2024-01-01T00:00:00Z' }), true);
    expect([s.phase, s.startTime]).toEqual(['Running', '2024-01-01T00:00:00Z']);
  });

  it('reports a running container as Ready on 127.0.0.1', () => {
    const s = computePodStatus(withPolicy('Never'), rt(), true);
    expect(s.phase).toBe('Running');
    expect(s.podIP).toBe('127.0.0.1');
    expect(Object.fromEntries(s.conditions!.map((c) => [c.type, c.status]))).toEqual({ Initialized: 'True', Ready: 'True', ContainersReady: 'True', PodScheduled: 'True' });
    expect(s.containerStatuses?.[0]).toMatchObject({ ready: true, started: true, containerID: 'process://42', state: { running: { startedAt: '2024-01-01T00:00:00Z' } } });
  });

  it('an evicted Pod is Failed with reason Evicted, the message and DisruptionTarget, even with restartPolicy Always', () => {
    const r = rt({ exit: { exitCode: 137, signal: 'SIGKILL', reason: 'Error', finishedAt: 'x' }, evicted: { message: 'The node was low on resource: memory. ', at: '2024-01-01T00:02:00Z' } });
    const pod = withPolicy('Always');
    const s = computePodStatus(pod, r, false);
    expect(s).toMatchObject({ phase: 'Failed', reason: 'Evicted', message: 'The node was low on resource: memory. ' });
    expect(s.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'TerminationByKubelet', lastTransitionTime: '2024-01-01T00:02:00Z' });
    expect(s.containerStatuses?.[0].state?.terminated).toMatchObject({ exitCode: 137 });
    // a status the API holds without the eviction's reason is a change to write
    expect(isPodStatusChanged({ ...pod, status: { ...s, reason: undefined, message: undefined } }, s)).toBe(true);
    expect(isPodStatusChanged({ ...pod, status: s }, s)).toBe(false);
  });

  it('gives a Pod no address before its container first starts (kube has no sandbox yet), the Pod network\'s once it has one', () => {
    const pending = computePodStatus(withPolicy('Never'), rt({ pid: undefined }), false);
    expect(pending.podIP).toBeUndefined();
    expect(pending.podIPs).toBeUndefined();
    expect(computePodStatus(withPolicy('Never'), undefined, false).podIP).toBeUndefined();
    expect(computePodStatus(withPolicy('Never'), rt({ podIP: '10.244.1.7' }), true).podIPs).toEqual([{ ip: '10.244.1.7' }]);
  });

  it('reports exit code, reason and message of a finished container', () => {
    const r = rt({ exit: { exitCode: 3, reason: 'LauncherFailed', message: 'qemu died', finishedAt: 'x' } });
    const s = computePodStatus(withPolicy('Never'), r, false);
    expect(s.phase).toBe('Failed');
    expect(s.containerStatuses?.[0].state?.terminated).toMatchObject({ exitCode: 3, reason: 'LauncherFailed', message: 'qemu died' });
    expect(s.conditions?.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
  });

  it('keeps Ready False until every readiness gate is True, and keeps foreign conditions', () => {
    const pod = makePod('p', withPodSpec({ readinessGates: [{ conditionType: 'kubevirt.io/virtual-machine-unpaused' }] }));
    expect(computePodStatus(pod, rt(), true).conditions?.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'ReadinessGatesNotReady' });
    pod.status!.conditions = [{ type: 'kubevirt.io/virtual-machine-unpaused', status: 'True' }];
    const s = computePodStatus(pod, rt(), true);
    expect(s.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(s.conditions?.map((c) => c.type)).toContain('kubevirt.io/virtual-machine-unpaused');
  });

  it('is unchanged when recomputed from its own output (no write loop)', () => {
    const pod = withPolicy('Never');
    pod.status = JSON.parse(JSON.stringify(computePodStatus(pod, rt(), true)));
    expect(isPodStatusChanged(pod, computePodStatus(pod, rt(), true))).toBe(false);
    expect(isPodStatusChanged(pod, computePodStatus(pod, exited(0), false))).toBe(true);
  });
});
