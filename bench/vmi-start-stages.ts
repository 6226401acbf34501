/**
 * Where a VMI's start time goes: per VMI, the wall-clock moment each step was first seen, relative
 * to its create call. API-side steps come from watches (VMI phases, launcher Pod added / bound /
 * Running); launcher-side steps from the launcher's own log lines in its pod dir
 * (`launcher listening`, `domain started`, which carries the durations of its start steps).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Watch, type KubeConfig, type V1Pod } from '@kubernetes/client-node';
import type { VirtualMachineInstance } from '../lib/kubevirt';
import { dataPaths } from '../server/data-dir';
import { criLogText } from '../server/kube/cri-log';

export const STAGES = ['vmi:Scheduling', 'pod:added', 'pod:bound', 'pod:Running', 'vmi:Scheduled', 'launcher:listening', 'launcher:domainStarted', 'vmi:Running'] as const;
type Stage = (typeof STAGES)[number];

interface Trace { createdAt: number; uid?: string; node?: string; podUID?: string; at: Partial<Record<Stage, number>>; steps?: Record<string, number> }

export class StageRecorder {
  readonly traces = new Map<string, Trace>();
  private aborts: AbortController[] = [];

  constructor(private readonly kc: KubeConfig, private readonly namespace: string) {}

  created(name: string): void {
    this.traces.set(name, { createdAt: Date.now(), at: {} });
  }

  private mark(name: string | undefined, stage: Stage): void {
    const t = name ? this.traces.get(name) : undefined;
    if (t && t.at[stage] === undefined) t.at[stage] = Date.now() - t.createdAt;
  }

  async start(): Promise<void> {
    const w = new Watch(this.kc);
    this.aborts.push(await w.watch(`/apis/kubevirt.io/v1/namespaces/${this.namespace}/virtualmachineinstances`, {}, (_t, vmi: VirtualMachineInstance) => {
      const t = this.traces.get(vmi.metadata.name!);
      if (!t) return;
      t.uid = vmi.metadata.uid;
      const phase = vmi.status?.phase as string | undefined;
      if (phase === 'Scheduling' || phase === 'Scheduled' || phase === 'Running') this.mark(vmi.metadata.name, `vmi:${phase}`);
    }, () => undefined));
    this.aborts.push(await w.watch(`/api/v1/namespaces/${this.namespace}/pods`, {}, (_t, pod: V1Pod) => {
      const owner = pod.metadata?.ownerReferences?.find((o) => o.kind === 'VirtualMachineInstance')?.name;
      const t = owner ? this.traces.get(owner) : undefined;
      if (!t) return;
      t.podUID = pod.metadata!.uid;
      this.mark(owner, 'pod:added');
      if (pod.spec?.nodeName) { t.node = pod.spec.nodeName; this.mark(owner, 'pod:bound'); }
      if (pod.status?.phase === 'Running') this.mark(owner, 'pod:Running');
    }, () => undefined));
  }

  stop(): void {
    for (const a of this.aborts) a.abort();
  }

  /** Reads the launchers' log lines (call before the cluster is stopped). */
  readLauncherLogs(dataDir: string): void {
    for (const t of this.traces.values()) {
      if (!t.node || !t.podUID) continue;
      const file = join(dataPaths(dataDir).node(t.node), 'pods', t.podUID, 'compute.log');
      const text = existsSync(file) ? criLogText(readFileSync(file)) : '';
      for (const l of text.split('\n')) {
        if (!l.startsWith('{')) continue;
        const e = JSON.parse(l) as { msg?: string; time?: string; steps?: Record<string, number> };
        const at = e.time ? Date.parse(e.time) - t.createdAt : undefined;
        if (at === undefined) continue;
        if (e.msg === 'launcher listening') t.at['launcher:listening'] ??= at;
        if (e.msg === 'domain started') { t.at['launcher:domainStarted'] ??= at; t.steps = e.steps; }
      }
    }
  }

  /** p50 of each stage (ms after create) and of each launcher start step. */
  summary(pct: (xs: number[], p: number) => number | undefined): string[] {
    const all = [...this.traces.values()];
    const rows = STAGES.map((s) => {
      const xs = all.map((t) => t.at[s]).filter((x): x is number => x !== undefined);
      return `  ${s.padEnd(24)} n=${String(xs.length).padStart(2)}  p50 ${String(pct(xs, 0.5) ?? '-').padStart(6)} ms  p95 ${String(pct(xs, 0.95) ?? '-').padStart(6)} ms`;
    });
    const stepNames = [...new Set(all.flatMap((t) => Object.keys(t.steps ?? {})))];
    for (const n of stepNames) {
      const xs = all.map((t) => t.steps?.[n]).filter((x): x is number => x !== undefined);
      rows.push(`  launcher step ${n.padEnd(10)} n=${String(xs.length).padStart(2)}  p50 ${String(pct(xs, 0.5) ?? '-').padStart(6)} ms  p95 ${String(pct(xs, 0.95) ?? '-').padStart(6)} ms`);
    }
    return rows;
  }
}
