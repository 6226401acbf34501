import { describe, expect, it } from 'vitest';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import { runWorkers, WorkQueue } from '../../kube/workqueue';
import { createControllerMetrics, PHASE_TRANSITION_BUCKETS } from './controller-metrics';
import { phaseTransitionSamples } from './phase-transitions';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

function vmi(phase: string | undefined, stamps: [string, number][], extra: Partial<VirtualMachineInstance['metadata']> = {}): VirtualMachineInstance {
  return {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance',
    metadata: { name: 'a', namespace: 'default', creationTimestamp: at(0), ...extra },
    spec: { domain: { devices: {} } },
    status: { phase, phaseTransitionTimestamps: stamps.map(([p, s]) => ({ phase: p, phaseTransitionTimestamp: at(s) })) },
  } as unknown as VirtualMachineInstance;
}

/** the value of one series in the Prometheus text, e.g. `name{label="x"}` */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('phaseTransitionSamples', () => {
  it('measures the new phase from creation and from the previous phase, by their transition timestamps', () => {
    const old = vmi('Scheduled', [['Pending', 0.1], ['Scheduling', 0.2], ['Scheduled', 1.5]]);
    const cur = vmi('Running', [['Pending', 0.1], ['Scheduling', 0.2], ['Scheduled', 1.5], ['Running', 2.25]]);
    expect(phaseTransitionSamples(old, cur)).toEqual({
      fromCreation: { phase: 'Running', seconds: 2.25 },
      sinceLastPhase: { phase: 'Running', lastPhase: 'Scheduled', seconds: 0.75 },
    });
  });

  it('takes no sample when the phase did not change, or on the first sight of a VMI', () => {
    const v = vmi('Running', [['Running', 3]]);
    expect(phaseTransitionSamples(v, v)).toEqual({});
    expect(phaseTransitionSamples(undefined, v)).toEqual({});
  });

  it('counts an unset previous phase from creation, and a final phase of a deleted VMI from the deletion', () => {
    const first = phaseTransitionSamples(vmi(undefined, []), vmi('Pending', [['Pending', 0.4]]));
    expect(first.sinceLastPhase).toEqual({ phase: 'Pending', lastPhase: '', seconds: 0.4 });
    const deleting = { deletionTimestamp: at(10) };
    const s = phaseTransitionSamples(vmi('Running', [['Running', 2]], deleting), vmi('Succeeded', [['Running', 2], ['Succeeded', 13]], deleting));
    expect(s.fromDeletion).toEqual({ phase: 'Succeeded', seconds: 3 });
    // a final phase without deletion has no from-deletion sample
    expect(phaseTransitionSamples(vmi('Running', [['Running', 2]]), vmi('Failed', [['Running', 2], ['Failed', 5]])).fromDeletion).toBeUndefined();
  });

  it('floors a clock skew between writers at 0', () => {
    const s = phaseTransitionSamples(vmi('Scheduled', [['Scheduled', 2]]), vmi('Running', [['Scheduled', 2], ['Running', 1.9]]));
    expect(s.sinceLastPhase?.seconds).toBe(0);
  });
});

describe('virt-controller metrics', () => {
  it('a VMI going through its phases fills the histograms with KubeVirt names, labels and buckets', async () => {
    const m = createControllerMetrics();
    const steps: VirtualMachineInstance[] = [
      vmi(undefined, []),
      vmi('Pending', [['Pending', 0.1]]),
      vmi('Scheduling', [['Pending', 0.1], ['Scheduling', 0.3]]),
      vmi('Scheduled', [['Pending', 0.1], ['Scheduling', 0.3], ['Scheduled', 1.2]]),
      vmi('Running', [['Pending', 0.1], ['Scheduling', 0.3], ['Scheduled', 1.2], ['Running', 2.5]]),
    ];
    for (let i = 1; i < steps.length; i++) m.observeVMI(steps[i - 1], steps[i]);
    m.observeVMI(steps[4], steps[4]); // a status write without a phase change: no sample
    const text = (await m.scrape()).body;
    const creation = 'kubevirt_vmi_phase_transition_time_from_creation_seconds';
    expect(text).toContain(`# TYPE ${creation} histogram`);
    expect(text).toContain(`# HELP ${creation} Histogram of VM phase transitions duration from creation time in seconds.`);
    expect(sample(text, `${creation}_count{phase="Running"}`)).toBe(1);
    expect(sample(text, `${creation}_sum{phase="Running"}`)).toBe(2.5);
    expect(sample(text, `${creation}_bucket{le="2",phase="Running"}`)).toBe(0);
    expect(sample(text, `${creation}_bucket{le="5",phase="Running"}`)).toBe(1);
    expect(sample(text, `${creation}_bucket{le="0.5",phase="Scheduling"}`)).toBe(1);
    const between = 'kubevirt_vmi_phase_transition_time_seconds';
    expect(sample(text, `${between}_sum{phase="Running",last_phase="Scheduled"}`)).toBeCloseTo(1.3);
    expect(sample(text, `${between}_count{phase="Scheduled",last_phase="Scheduling"}`)).toBe(1);
    expect(text).toContain('kubevirt_vmi_phase_transition_time_from_deletion_seconds');
    // every bucket KubeVirt has, up to an hour
    const les = text.split('\n').filter((l) => l.startsWith(`${creation}_bucket{`) && l.includes('phase="Running"')).map((l) => /le="([^"]+)"/.exec(l)![1]);
    expect(les).toEqual([...PHASE_TRANSITION_BUCKETS.map(String), '+Inf']);
  });

  it('a named work queue moves adds, depth, durations and retries under label name', async () => {
    const m = createControllerMetrics();
    const q = new WorkQueue({ name: 'virt-controller-vmi', metrics: m.workQueues });
    const scrape = async () => (await m.scrape()).body;
    const l = '{name="virt-controller-vmi"}';
    expect(sample(await scrape(), `kubevirt_workqueue_adds_total${l}`)).toBe(0);
    q.add('default/a');
    q.add('default/b');
    q.add('default/a'); // coalesced: not an add
    let text = await scrape();
    expect(sample(text, `kubevirt_workqueue_adds_total${l}`)).toBe(2);
    expect(sample(text, `kubevirt_workqueue_depth${l}`)).toBe(2);

    let release!: () => void;
    const blocked = new Promise<void>((r) => { release = r; });
    const handled: string[] = [];
    const workers = runWorkers(q, 1, async (key) => { handled.push(key); if (key === 'default/a') await blocked; });
    await new Promise((r) => setTimeout(r, 30));
    text = await scrape();
    expect(sample(text, `kubevirt_workqueue_depth${l}`)).toBe(1);
    expect(sample(text, `kubevirt_workqueue_longest_running_processor_seconds${l}`)).toBeGreaterThanOrEqual(0.02);
    expect(sample(text, `kubevirt_workqueue_unfinished_work_seconds${l}`)).toBeGreaterThanOrEqual(0.02);
    release();
    await new Promise((r) => setTimeout(r, 10));
    q.addRateLimited('default/c');
    await new Promise((r) => setTimeout(r, 30));
    q.shutdown();
    await workers;
    expect(handled).toEqual(['default/a', 'default/b', 'default/c']);
    text = await scrape();
    expect(sample(text, `kubevirt_workqueue_retries_total${l}`)).toBe(1);
    expect(sample(text, `kubevirt_workqueue_adds_total${l}`)).toBe(3);
    expect(sample(text, `kubevirt_workqueue_work_duration_seconds_count${l}`)).toBe(3);
    expect(sample(text, `kubevirt_workqueue_work_duration_seconds_sum${l}`)).toBeGreaterThanOrEqual(0.02);
    expect(sample(text, `kubevirt_workqueue_queue_duration_seconds_count${l}`)).toBe(3);
    expect(sample(text, `kubevirt_workqueue_longest_running_processor_seconds${l}`)).toBe(0);
  });

  it('counts migrations per phase at scrape time and reports leading/ready', async () => {
    const m = createControllerMetrics();
    const migrations = [{ status: { phase: 'Pending' } }, { status: { phase: 'Pending' } }, { status: { phase: 'Running' } }, {}, { status: { phase: 'Succeeded' } }];
    m.setMigrationSource(() => migrations);
    m.setLeading(true);
    m.setReady(true);
    const text = (await m.scrape()).body;
    expect(sample(text, 'kubevirt_vmi_migrations_in_pending_phase')).toBe(2);
    expect(sample(text, 'kubevirt_vmi_migrations_in_running_phase')).toBe(1);
    expect(sample(text, 'kubevirt_vmi_migrations_in_scheduling_phase')).toBe(0);
    expect(sample(text, 'kubevirt_vmi_migrations_in_unset_phase')).toBe(1);
    expect(sample(text, 'kubevirt_virt_controller_leading_status')).toBe(1);
    expect(sample(text, 'kubevirt_virt_controller_ready_status')).toBe(1);
  });
});
