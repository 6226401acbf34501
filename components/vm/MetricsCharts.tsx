'use client';
/** CPU and memory of a running VMI from its node agent's kubevirt_vmi_* metrics (sampled every 5 s while open). */
import { useEffect, useState } from 'react';
import { formatBytes } from '@/lib/console/format';
import type { VMISample } from '@/lib/console/prometheus-text';
import { EmptyState } from '@/components/ui/EmptyState';

const SAMPLE_MS = 5000;
const KEEP = 60;
interface Point { at: number; cpu?: number; mem?: number }

function Spark({ points, max, label, format }: { points: (number | undefined)[]; max: number; label: string; format: (v: number) => string }) {
  const vals = points.map((v) => v ?? 0);
  const last = points[points.length - 1];
  const d = vals.map((v, i) => `${i === 0 ? 'M' : 'L'}${(i / Math.max(KEEP - 1, 1)) * 300},${60 - (v / (max || 1)) * 56}`).join(' ');
  return (
    <div className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
      <div className="flex justify-between text-sm"><span className="font-medium">{label}</span><span>{last !== undefined ? format(last) : '—'}</span></div>
      <svg viewBox="0 0 300 60" className="mt-2 h-16 w-full" role="img" aria-label={`${label} graph`}><path d={d} fill="none" stroke="currentColor" strokeWidth="1.5" className="text-indigo-500 dark:text-indigo-400" /></svg>
    </div>
  );
}

export function MetricsCharts({ namespace, name, running }: { namespace: string; name: string; running: boolean }) {
  const [points, setPoints] = useState<Point[]>([]);
  const [why, setWhy] = useState<string>();
  useEffect(() => {
    if (!running) return;
    let prev: { at: number; cpuSeconds?: number } | undefined;
    let stopped = false;
    const tick = async () => {
      const r = await fetch(`/api/metrics/${namespace}/${name}`).then((x) => x.json()).catch(() => ({ available: false, why: 'The console could not fetch metrics.' }));
      if (stopped) return;
      if (!r.available) { setWhy(r.why ?? r.message); return; }
      setWhy(undefined);
      const s = r.sample as VMISample;
      const cpu = prev?.cpuSeconds !== undefined && s.cpuSeconds !== undefined ? ((s.cpuSeconds - prev.cpuSeconds) / ((r.at - prev.at) / 1000)) * 100 : undefined;
      prev = { at: r.at, cpuSeconds: s.cpuSeconds };
      setPoints((p) => [...p.slice(-(KEEP - 1)), { at: r.at, cpu, mem: s.memoryResidentBytes ?? s.memoryDomainBytes }]);
    };
    void tick();
    const t = setInterval(tick, SAMPLE_MS);
    return () => { stopped = true; clearInterval(t); };
  }, [namespace, name, running]);
  if (!running) return <EmptyState title="No metrics while it is stopped">Start it to see CPU and memory.</EmptyState>;
  if (why) return <EmptyState title="No metrics">{why}</EmptyState>;
  const memMax = Math.max(...points.map((p) => p.mem ?? 0), 1);
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Spark label="CPU (% of one core)" points={points.map((p) => p.cpu)} max={Math.max(100, ...points.map((p) => p.cpu ?? 0))} format={(v) => `${v.toFixed(0)} %`} />
      <Spark label="Memory (resident)" points={points.map((p) => p.mem)} max={memMax} format={(v) => formatBytes(v)} />
    </div>
  );
}
