import type { V1ContainerState, V1ContainerStatus, V1Pod, V1PodCondition, V1PodStatus } from '@kubernetes/client-node';
import { formatKubeTime } from '../kube/time';
import { HOST_IP, POD_IP } from './pod-command';
import type { ContainerExit, PodRuntime } from './pod-runtime';
import { isConsoleLogSidecar } from './image-policy';
import { disruptionCondition, EVICTED_REASON } from './eviction/rank';

const DISRUPTION_TARGET = 'DisruptionTarget';

/** Condition types the kubelet owns; others on the pod (readiness gates, ...) are kept as they are. */
const KUBELET_CONDITIONS = ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'];

type Phase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

/** The pod phase from its one container and restart policy, as the kubelet computes it. */
export function podPhase(pod: V1Pod, rt: PodRuntime | undefined, running: boolean): Phase {
  if (rt?.evicted) return 'Failed'; // kube's eviction manager sets the phase itself
  if (running) return 'Running';
  if (!rt?.exit) return rt?.restartCount ? 'Running' : 'Pending';
  const policy = pod.spec?.restartPolicy ?? 'Always';
  const ok = rt.exit.exitCode === 0;
  if (policy === 'Never') return ok ? 'Succeeded' : 'Failed';
  if (policy === 'OnFailure' && ok) return 'Succeeded';
  return 'Running'; // about to be restarted
}

function terminated(exit: ContainerExit, containerID: string): V1ContainerState {
  return { terminated: { exitCode: exit.exitCode, reason: exit.reason, message: exit.message, startedAt: exit.startedAt as never, finishedAt: exit.finishedAt as never, containerID } };
}

function containerState(rt: PodRuntime | undefined, running: boolean, phase: Phase): V1ContainerState {
  const id = `process://${rt?.pid ?? 0}`;
  if (running) return { running: { startedAt: rt!.startedAt as never } };
  if (rt?.exit && (phase === 'Succeeded' || phase === 'Failed')) return terminated(rt.exit, id);
  if (rt?.refused) return { waiting: { reason: rt.refused.reason, message: rt.refused.message } };
  if (rt?.pullWait && !rt.pid) return { waiting: { reason: rt.pullWait.reason, message: rt.pullWait.message } };
  if (rt?.exit) return { waiting: { reason: 'CrashLoopBackOff', message: `back-off restarting failed container ${rt.container}` } };
  return { waiting: { reason: 'ContainerCreating' } };
}

function condition(pod: V1Pod, type: string, ok: boolean, reason?: string, message?: string): V1PodCondition {
  const status = ok ? 'True' : 'False';
  const prev = pod.status?.conditions?.find((c) => c.type === type);
  const since = prev?.status === status ? prev.lastTransitionTime : formatKubeTime();
  return { type, status, reason, message, lastProbeTime: null as never, lastTransitionTime: since as never };
}

/** Ready needs ready containers and every readiness gate's condition True (kube's readiness gates). */
function readyCondition(pod: V1Pod, containersReady: boolean, notReady: V1PodCondition): V1PodCondition {
  if (!containersReady) return { ...notReady, type: 'Ready', lastTransitionTime: condition(pod, 'Ready', false).lastTransitionTime };
  for (const gate of pod.spec?.readinessGates ?? []) {
    const c = pod.status?.conditions?.find((x) => x.type === gate.conditionType);
    if (c?.status !== 'True') {
      const message = c ? `the status of pod readiness gate "${gate.conditionType}" is not "True", but ${c.status}` : `corresponding condition of pod readiness gate "${gate.conditionType}" does not exist.`;
      return condition(pod, 'Ready', false, 'ReadinessGatesNotReady', message);
    }
  }
  return condition(pod, 'Ready', true);
}

function kubeletConditions(pod: V1Pod, phase: Phase, running: boolean): V1PodCondition[] {
  const name = pod.spec?.containers?.[0]?.name ?? '';
  const completed = phase === 'Succeeded' || phase === 'Failed';
  let containersReady: V1PodCondition;
  if (completed) containersReady = condition(pod, 'ContainersReady', false, 'PodCompleted');
  else if (running) containersReady = condition(pod, 'ContainersReady', true);
  else containersReady = condition(pod, 'ContainersReady', false, 'ContainersNotReady', `containers with unready status: [${name}]`);
  return [condition(pod, 'Initialized', true), readyCondition(pod, running, containersReady), containersReady, condition(pod, 'PodScheduled', true)];
}

function containerStatus(pod: V1Pod, rt: PodRuntime | undefined, running: boolean, phase: Phase, index = 0): V1ContainerStatus {
  const container = pod.spec?.containers?.[index];
  const id = rt?.pid ? `process://${rt.pid}` : undefined;
  return {
    name: container?.name ?? '',
    image: container?.image ?? '',
    imageID: '',
    containerID: id,
    ready: running,
    started: running,
    restartCount: rt?.restartCount ?? 0,
    state: containerState(rt, running, phase),
    lastState: rt?.lastExit ? terminated(rt.lastExit, id ?? 'process://0') : {},
  };
}

/** The status the kubelet reports for `pod` given what it runs; foreign conditions are preserved. */
export function computePodStatus(pod: V1Pod, rt: PodRuntime | undefined, running: boolean): V1PodStatus {
  // the Pod's address once its sandbox exists, as kube reports it: the Pod network's, or the host's
  // loopback for Pods sharing the node's network; none before the container first starts
  const podIP = rt?.podIP ?? (rt?.pid || rt?.exit ? POD_IP : undefined);
  const phase = podPhase(pod, rt, running);
  const foreign = (pod.status?.conditions ?? []).filter((c) => !KUBELET_CONDITIONS.includes(c.type) && !(rt?.evicted && c.type === DISRUPTION_TARGET));
  const evicted = rt?.evicted ? [disruptionCondition(rt.evicted.message, rt.evicted.at)] : [];
  return {
    phase,
    ...(rt?.evicted ? { reason: EVICTED_REASON, message: rt.evicted.message } : {}),
    conditions: [...kubeletConditions(pod, phase, running), ...evicted, ...foreign],
    // a console-log sidecar is served by the first container's process and shares its state
    containerStatuses: (pod.spec?.containers ?? [{ name: '' }]).flatMap((c, i) => (i === 0 || isConsoleLogSidecar(c) ? [containerStatus(pod, rt, running, phase, i)] : [])),
    hostIP: HOST_IP,
    hostIPs: [{ ip: HOST_IP }],
    ...(podIP ? { podIP, podIPs: [{ ip: podIP }] } : {}),
    startTime: (pod.status?.startTime ?? rt?.acknowledgedAt ?? formatKubeTime()) as never,
    qosClass: pod.status?.qosClass,
  };
}

function normalize(s: V1PodStatus): string {
  const conds = (s.conditions ?? []).map((c) => [c.type, c.status, c.reason ?? '', c.message ?? '']).sort();
  const containers = (s.containerStatuses ?? []).map((c) => {
    const st = c.state ?? {};
    const t = st.terminated;
    return [c.name, c.ready, c.started ?? false, c.restartCount, c.containerID ?? '', st.running ? 'running' : t ? `terminated:${t.exitCode}:${t.reason ?? ''}:${t.message ?? ''}` : `waiting:${st.waiting?.reason ?? ''}`, c.lastState?.terminated?.exitCode ?? ''];
  });
  return JSON.stringify([s.phase, s.reason ?? '', s.message ?? '', conds, containers, s.podIP ?? '', s.hostIP ?? '', s.startTime ? 1 : 0]);
}

/** True when `next` differs from what the API has in anything the kubelet reports (timestamps aside). */
export function isPodStatusChanged(pod: V1Pod, next: V1PodStatus): boolean {
  return normalize(pod.status ?? {}) !== normalize(next);
}
