/**
 * virt-controller's Prometheus metrics with KubeVirt's names, types, labels, buckets and help
 * texts: the VMI phase-transition histograms (perfscale), the work queues (`kubevirt_workqueue_*`,
 * label `name`), the migrations per phase and the leading/ready gauges. One registry per
 * controller process, so several in one process (tests) do not collide.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';
import type { WorkQueueMetricsProvider } from '../../kube/workqueue';
import { phaseTransitionSamples } from './phase-transitions';

/** KubeVirt's PhaseTransitionTimeBuckets: 0.5 s … 1 h */
export const PHASE_TRANSITION_BUCKETS = [0.5, 1, 2, 5, 10, 20, 30, 40, 50, 60, 90, 120, 180, 300, 600, 1200, 1800, 3600];
/** client-go's workqueue buckets (ExponentialBuckets(10e-9, 10, 10)): 10 ns … 10 s */
export const WORKQUEUE_BUCKETS = Array.from({ length: 10 }, (_, i) => Number((1e-8 * 10 ** i).toPrecision(1)));

/** The migrations' phases KubeVirt counts in gauges (`kubevirt_vmi_migrations_in_<phase>_phase`). */
const MIGRATION_PHASES = { pending: 'Pending', scheduling: 'Scheduling', running: 'Running', unset: '' } as const;

export interface ControllerMetrics {
  registry: Registry;
  workQueues: WorkQueueMetricsProvider;
  /** an informer saw a VMI change (old → cur) */
  observeVMI(old: VirtualMachineInstance | undefined, cur: VirtualMachineInstance): void;
  /** where the migration gauges read their counts at scrape time */
  setMigrationSource(list: () => { status?: { phase?: string } }[]): void;
  setLeading(leading: boolean): void;
  setReady(ready: boolean): void;
  scrape(): Promise<{ contentType: string; body: string }>;
}

export function createControllerMetrics(): ControllerMetrics {
  const registry = new Registry();
  const registers = [registry];
  const histogram = (name: string, help: string, labelNames: string[], buckets: number[]) => new Histogram({ name, help, labelNames, buckets, registers });

  const fromCreation = histogram('kubevirt_vmi_phase_transition_time_from_creation_seconds', 'Histogram of VM phase transitions duration from creation time in seconds.', ['phase'], PHASE_TRANSITION_BUCKETS);
  const sinceLast = histogram('kubevirt_vmi_phase_transition_time_seconds', 'Histogram of VM phase transitions duration between different phases in seconds.', ['phase', 'last_phase'], PHASE_TRANSITION_BUCKETS);
  const fromDeletion = histogram('kubevirt_vmi_phase_transition_time_from_deletion_seconds', 'Histogram of VM phase transitions duration from deletion time in seconds.', ['phase'], PHASE_TRANSITION_BUCKETS);

  const depth = new Gauge({ name: 'kubevirt_workqueue_depth', help: 'Current depth of workqueue', labelNames: ['name'], registers });
  const adds = new Counter({ name: 'kubevirt_workqueue_adds_total', help: 'Total number of adds handled by workqueue', labelNames: ['name'], registers });
  const queueDuration = histogram('kubevirt_workqueue_queue_duration_seconds', 'How long an item stays in workqueue before being requested.', ['name'], WORKQUEUE_BUCKETS);
  const workDuration = histogram('kubevirt_workqueue_work_duration_seconds', 'How long in seconds processing an item from workqueue takes.', ['name'], WORKQUEUE_BUCKETS);
  const retries = new Counter({ name: 'kubevirt_workqueue_retries_total', help: 'Total number of retries handled by workqueue', labelNames: ['name'], registers });
  const inFlight = new Map<string, () => number[]>();
  const ages = (name: string) => inFlight.get(name)!().map((start) => (performance.now() - start) / 1000);
  new Gauge({
    name: 'kubevirt_workqueue_longest_running_processor_seconds', help: 'How many seconds has the longest running processor for workqueue been running.', labelNames: ['name'], registers,
    collect() { for (const name of inFlight.keys()) this.set({ name }, Math.max(0, ...ages(name))); },
  });
  new Gauge({
    name: 'kubevirt_workqueue_unfinished_work_seconds', registers, labelNames: ['name'],
    help: "How many seconds of work has done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
    collect() { for (const name of inFlight.keys()) this.set({ name }, ages(name).reduce((a, b) => a + b, 0)); },
  });

  const workQueues: WorkQueueMetricsProvider = (name, inFlightSince) => {
    inFlight.set(name, inFlightSince);
    const l = { name };
    // a queue's series exist from its creation, at 0, as client-go's do
    depth.set(l, 0); adds.inc(l, 0); retries.inc(l, 0);
    return {
      added: () => adds.inc(l),
      depth: (n) => depth.set(l, n),
      queued: (s) => queueDuration.observe(l, s),
      worked: (s) => workDuration.observe(l, s),
      retried: () => retries.inc(l),
    };
  };

  let migrations: () => { status?: { phase?: string } }[] = () => [];
  for (const [label, phase] of Object.entries(MIGRATION_PHASES)) {
    new Gauge({
      name: `kubevirt_vmi_migrations_in_${label}_phase`, help: `Number of current ${label} migrations.`, registers,
      collect() { this.set(migrations().filter((m) => (m.status?.phase ?? '') === phase).length); },
    });
  }
  const leading = new Gauge({ name: 'kubevirt_virt_controller_leading_status', help: 'Indication for an operating virt-controller.', registers });
  const ready = new Gauge({ name: 'kubevirt_virt_controller_ready_status', help: 'Indication for a virt-controller that is ready to take the lead.', registers });

  return {
    registry,
    workQueues,
    observeVMI(old, cur) {
      const s = phaseTransitionSamples(old, cur);
      if (s.fromCreation) fromCreation.observe({ phase: s.fromCreation.phase }, s.fromCreation.seconds);
      if (s.sinceLastPhase) sinceLast.observe({ phase: s.sinceLastPhase.phase, last_phase: s.sinceLastPhase.lastPhase }, s.sinceLastPhase.seconds);
      if (s.fromDeletion) fromDeletion.observe({ phase: s.fromDeletion.phase }, s.fromDeletion.seconds);
    },
    setMigrationSource(list) { migrations = list; },
    setLeading(on) { leading.set(on ? 1 : 0); },
    setReady(on) { ready.set(on ? 1 : 0); },
    async scrape() { return { contentType: registry.contentType, body: await registry.metrics() }; },
  };
}
