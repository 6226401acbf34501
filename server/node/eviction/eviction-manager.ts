import type { V1Pod } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { delay } from '../../kube/backoff';
import { messageOf } from '../../kube/api-errors';
import { evictionMessage, rankForEviction, type EvictionCandidate } from './rank';
import { SIGNAL_RESOURCE, thresholdsMet, type EvictionThreshold, type Observations } from './thresholds';
import { diskUsageOf, memoryUsageOf } from './pod-usage';

/** kubelet's housekeeping interval for the eviction manager (10 s). */
export const DEFAULT_EVICTION_INTERVAL_MS = 10_000;

/** A Pod this node runs now, as the eviction manager sees it. */
export interface RunningPod {
  uid: string;
  key: string;
  dir: string;
  pids: number[];
}

export interface EvictionManagerOptions {
  /** The hard thresholds in force, asked on every pass. */
  thresholds: () => EvictionThreshold[];
  observe: () => Observations;
  running: () => RunningPod[];
  podOf: (key: string) => V1Pod | undefined;
  /** Kill the Pod and fail it with this message; false when it no longer ran. */
  evict: (pod: V1Pod, message: string) => boolean;
  /** Publish the pressure (node conditions and taints) now: before an eviction, so no replacement Pod is placed back here. */
  reportPressure?: () => Promise<void>;
  log: Logger;
  intervalMs?: number;
}

/** Memory before disk, as kube orders the thresholds it reclaims (byEvictionPriority). */
const SIGNAL_ORDER = ['memory.available', 'nodefs.available'];

/**
 * kube's eviction manager for hard thresholds: every pass observes the node; when a threshold is
 * crossed it ranks the running Pods for the starved resource and evicts the first — one Pod per
 * pass, so the next eviction waits until a later pass has observed the node again.
 */
export class EvictionManager {
  constructor(private readonly opts: EvictionManagerOptions) {}

  async run(signal: AbortSignal): Promise<void> {
    const every = this.opts.intervalMs ?? DEFAULT_EVICTION_INTERVAL_MS;
    while (!signal.aborted) {
      try {
        await this.pass();
      } catch (err) {
        this.opts.log.warn({ err: messageOf(err) }, 'eviction pass failed');
      }
      await delay(every, signal);
    }
  }

  /** One pass: the evicted Pod's key, or undefined when nothing was (or could be) evicted. */
  async pass(): Promise<string | undefined> {
    const obs = this.opts.observe();
    const met = thresholdsMet(this.opts.thresholds(), obs).sort((a, b) => SIGNAL_ORDER.indexOf(a.signal) - SIGNAL_ORDER.indexOf(b.signal));
    const threshold = met[0];
    if (!threshold) return undefined;
    const resource = SIGNAL_RESOURCE[threshold.signal];
    const candidates: EvictionCandidate[] = [];
    for (const p of this.opts.running()) {
      const pod = this.opts.podOf(p.key);
      if (!pod || pod.metadata?.uid !== p.uid || pod.metadata.deletionTimestamp) continue;
      candidates.push({ pod, usage: resource === 'memory' ? memoryUsageOf(p.pids) : diskUsageOf(p.dir) });
    }
    const ranked = rankForEviction(candidates, resource);
    if (ranked.length) await this.publishPressure();
    this.opts.log.info({ threshold: `${threshold.signal}<${threshold.text}`, observed: obs[threshold.signal]?.available, candidates: ranked.length }, 'eviction threshold crossed');
    for (const c of ranked) {
      const message = evictionMessage(c, threshold, obs[threshold.signal]);
      if (this.opts.evict(c.pod, message)) return `${c.pod.metadata?.namespace}/${c.pod.metadata?.name}`;
    }
    this.opts.log.warn({ threshold: threshold.signal }, 'eviction manager: no pod to evict');
    return undefined;
  }

  private async publishPressure(): Promise<void> {
    try {
      await this.opts.reportPressure?.();
    } catch (err) {
      this.opts.log.warn({ err: messageOf(err) }, 'node pressure not published before eviction; evicting anyway');
    }
  }
}
