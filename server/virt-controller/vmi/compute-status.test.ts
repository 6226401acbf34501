import { describe, expect, it } from 'vitest';
import { computeStatus } from './compute-status';
import { newPod, newVMI, onNode, podFailed, podRunning, podTerminating, podUnschedulable, withDeletion, withPhase, withStatus } from './testing-builders';

const now = new Date('2026-02-02T00:00:00Z');
const base = newVMI();
const cond = (s: ReturnType<typeof computeStatus>, type: string) => s.conditions?.find((c) => c.type === type);

describe('computeStatus phases', () => {
  it.each([
    ['new VMI, no pod', newVMI(), [], 'Pending'],
    ['pod created', newVMI(withPhase('Pending')), [newPod(base)], 'Scheduling'],
    ['pod pending on a node', newVMI(withPhase('Scheduling')), [newPod(base, onNode('n1'))], 'Scheduling'],
    ['pod running on a node', newVMI(withPhase('Scheduling')), [newPod(base, onNode('n1'), podRunning())], 'Scheduled'],
    ['already running pod seen first (controller restart)', newVMI(), [newPod(base, onNode('n1'), podRunning())], 'Scheduled'],
    ['pod failed while scheduling', newVMI(withPhase('Scheduling')), [newPod(base, onNode('n1'), podFailed())], 'Failed'],
    ['pod vanished while scheduling', newVMI(withPhase('Scheduling')), [], 'Failed'],
    ['pod failed before handler took over', newVMI(withPhase('Scheduled')), [newPod(base, onNode('n1'), podFailed())], 'Failed'],
    ['pod gone while running', newVMI(withPhase('Running')), [], 'Failed'],
    ['pod down while running: the handler decides', newVMI(withPhase('Running')), [newPod(base, onNode('n1'), podFailed())], 'Running'],
    ['deleted before any pod', newVMI(withPhase('Pending'), withDeletion()), [], 'Failed'],
    ['final phase is sticky', newVMI(withPhase('Succeeded')), [], 'Succeeded'],
  ])('%s', (_name, vmi, pods, phase) => {
    expect(computeStatus(vmi, { pods, now }).phase).toBe(phase);
  });

  it('records node and active pods at hand-over', () => {
    const s = computeStatus(newVMI(withPhase('Scheduling')), { pods: [newPod(base, onNode('node-2'), podRunning())], now });
    expect(s).toMatchObject({ nodeName: 'node-2', activePods: { 'pod-uid': 'node-2' }, qosClass: 'Burstable', migrationTransport: 'Unix' });
  });

  it('keeps only the first timestamp of each phase', () => {
    const s = computeStatus(newVMI(), { pods: [newPod(base, onNode('n1'), podRunning())], now });
    expect(s.phaseTransitionTimestamps!.map((t) => t.phase)).toEqual(['Pending', 'Scheduling', 'Scheduled']);
    const again = computeStatus(newVMI(withStatus(s)), { pods: [newPod(base, onNode('n1'), podRunning())], now: new Date('2030-01-01T00:00:00Z') });
    expect(again.phaseTransitionTimestamps).toEqual(s.phaseTransitionTimestamps);
  });

  it('says why a pod failed', () => {
    const s = computeStatus(newVMI(withPhase('Scheduling')), { pods: [newPod(base, onNode('n1'), podFailed('ErrImagePull', 'no such image'))], now });
    expect(s.reason).toBe('ErrImagePull');
  });
});

describe('computeStatus conditions', () => {
  it('copies PodScheduled=False from an unschedulable pod', () => {
    const msg = '0/2 nodes are available: 2 Insufficient memory.';
    const s = computeStatus(newVMI(withPhase('Scheduling')), { pods: [newPod(base, podUnschedulable(msg))], now });
    expect(cond(s, 'PodScheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable', message: msg });
  });

  it('shows a sync error as Synchronized=False and clears it once healthy', () => {
    const syncError = { reason: 'ErrImagePull', message: 'image "foo" not found in the local image store; import it with kv images import' };
    const failed = computeStatus(newVMI(), { pods: [], now, syncError });
    expect(cond(failed, 'Synchronized')).toMatchObject({ status: 'False', ...syncError });
    expect(failed.phase).toBe('Pending');
    expect(cond(computeStatus(newVMI(withStatus(failed)), { pods: [], now }), 'Synchronized')).toBeUndefined();
  });

  it('copies the kubelet\'s image pull failure to Synchronized=False until the pull succeeds', () => {
    const message = 'Back-off pulling image "r:5000/d:v9": ErrImagePull: failed to pull image "r:5000/d:v9": manifest unknown: manifest unknown';
    const pulling = newPod(base, onNode('n1'), (p) => {
      p.status = { phase: 'Pending', containerStatuses: [{ name: 'compute', ready: false, restartCount: 0, image: 'x', imageID: '', state: { waiting: { reason: 'ImagePullBackOff', message } } }] };
    });
    const s = computeStatus(newVMI(withPhase('Scheduling')), { pods: [pulling], now });
    expect(cond(s, 'Synchronized')).toMatchObject({ status: 'False', reason: 'ImagePullBackOff', message });
    expect(s.phase).toBe('Scheduling');
    const pulled = computeStatus(newVMI(withStatus(s)), { pods: [newPod(base, onNode('n1'), podRunning())], now });
    expect(cond(pulled, 'Synchronized')).toBeUndefined();
    // after hand-over, an ErrImagePull the handler set (the launcher found no image) is the handler's
    const handlers = { type: 'Synchronized', status: 'False' as const, reason: 'ErrImagePull', message: 'from the launcher' };
    const running = computeStatus(newVMI(withStatus({ phase: 'Running', conditions: [handlers] })), { pods: [newPod(base, onNode('n1'), podRunning())], now });
    expect(cond(running, 'Synchronized')).toMatchObject(handlers);
  });

  it('leaves the handler\'s Synchronized condition alone after hand-over', () => {
    const handlerCond = { type: 'Synchronized', status: 'False' as const, reason: 'QEMUStartFailed', message: 'x' };
    const s = computeStatus(newVMI(withStatus({ phase: 'Running', conditions: [handlerCond] })), { pods: [newPod(base, onNode('n1'), podRunning())], now });
    expect(cond(s, 'Synchronized')).toMatchObject(handlerCond);
  });

  it.each([
    ['no pod', newVMI(withPhase('Pending')), [], 'False', 'PodNotExists'],
    ['scheduled, guest not yet running', newVMI(withPhase('Scheduling')), [newPod(base, onNode('n1'), podRunning())], 'False', 'GuestNotRunning'],
    ['pod gone while running (the controller fails the VMI)', newVMI(withStatus({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] })), [], 'False', 'PodNotExists'],
    ['succeeded, pod terminating', newVMI(withPhase('Succeeded')), [newPod(base, onNode('n1'), podRunning(), podTerminating())], 'False', 'PodTerminating'],
  ])('Ready when %s', (_name, vmi, pods, status, reason) => {
    const ready = cond(computeStatus(vmi, { pods, now }), 'Ready');
    expect([ready?.status, ready?.reason]).toEqual([status, reason]);
  });

  it.each([
    ['pod not ready', podRunning(false)],
    ['pod terminating', podTerminating()],
  ])('leaves Ready to virt-handler while the VMI is Running (%s)', (_name, change) => {
    const handlers = { type: 'Ready', status: 'True' as const, lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00.000Z' };
    const vmi = newVMI(withStatus({ phase: 'Running', nodeName: 'n1', conditions: [handlers] }));
    expect(cond(computeStatus(vmi, { pods: [newPod(base, onNode('n1'), podRunning(), change)], now }), 'Ready')).toEqual(handlers);
  });

  it('keeps lastTransitionTime while a condition does not change', () => {
    const first = computeStatus(newVMI(), { pods: [], now });
    const later = computeStatus(newVMI(withStatus(first)), { pods: [], now: new Date('2030-01-01T00:00:00Z') });
    expect(later).toEqual(first);
  });
});

describe('computeStatus during a migration', () => {
  const source = newPod(base, onNode('node-1'), podRunning(), (p) => { p.metadata!.uid = 'src'; });
  const newer = (p: ReturnType<typeof newPod>) => { p.metadata!.uid = 'tgt'; p.metadata!.creationTimestamp = new Date('2026-01-02T00:00:00Z'); };

  it.each([
    ['both Pods while the guest moves', [source, newPod(base, onNode('node-2'), podRunning(), newer)], 'node-1', { src: 'node-1', tgt: 'node-2' }],
    ['the finished source Pod drops out once the VMI is on the target', [newPod(base, onNode('node-1'), podFailed(), (p) => { p.metadata!.uid = 'src'; }), newPod(base, onNode('node-2'), podRunning(), newer)], 'node-2', { tgt: 'node-2' }],
    ['a failed target Pod drops out', [source, newPod(base, onNode('node-2'), podFailed(), newer)], 'node-1', { src: 'node-1' }],
    ['a crashed launcher on the VMI node stays (its termination record matters)', [newPod(base, onNode('node-1'), podFailed(), (p) => { p.metadata!.uid = 'src'; })], 'node-1', { src: 'node-1' }],
  ])('activePods: %s', (_n, pods, nodeName, want) => {
    const vmi = newVMI(withStatus({ phase: 'Running', nodeName }));
    expect(computeStatus(vmi, { pods, now }).activePods).toEqual(want);
  });
});
