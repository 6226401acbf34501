import { randomBytes } from 'node:crypto';
import type { CoreV1Api, CoreV1Event, KubernetesObject } from '@kubernetes/client-node';
import { log } from '../log';
import { mergePatch } from './clients';
import { messageOf } from './api-errors';
import { formatKubeTime } from './time';

export const EventTypeNormal = 'Normal';
export const EventTypeWarning = 'Warning';
export type EventType = typeof EventTypeNormal | typeof EventTypeWarning;

/** Identical events (same object, type, reason, message) within this window bump `count` instead. */
const AGGREGATION_WINDOW_MS = 10 * 60 * 1000;
const MAX_REMEMBERED = 1000;

interface Seen {
  namespace: string;
  name: string;
  count: number;
  at: number;
}

/**
 * Records core/v1 Events about objects, like client-go's EventRecorder. Never throws: a failed
 * event is logged and dropped. `record` returns the write's promise for tests; callers ignore it.
 */
export class EventRecorder {
  private readonly seen = new Map<string, Seen>();
  private readonly log = log.child({ component: 'events' });

  constructor(
    private readonly core: CoreV1Api,
    private readonly source: { component: string; host?: string },
  ) {}

  record(obj: KubernetesObject, type: EventType, reason: string, message: string): Promise<void> {
    return this.write(obj, type, reason, message).catch((err) => {
      this.log.warn({ err: messageOf(err), reason, object: obj.metadata?.name }, 'could not record event');
    });
  }

  private async write(obj: KubernetesObject, type: EventType, reason: string, message: string): Promise<void> {
    const meta = obj.metadata ?? {};
    const namespace = meta.namespace || 'default';
    const id = `${meta.uid ?? meta.name}|${type}|${reason}|${message}`;
    const now = new Date();
    const prior = this.seen.get(id);
    if (prior && now.getTime() - prior.at < AGGREGATION_WINDOW_MS) {
      prior.count++;
      prior.at = now.getTime();
      await this.core.patchNamespacedEvent(
        { namespace: prior.namespace, name: prior.name, body: { count: prior.count, lastTimestamp: formatKubeTime(now) } },
        mergePatch,
      );
      return;
    }
    const nanos = BigInt(now.getTime()) * 1_000_000n + BigInt(randomBytes(2).readUInt16BE());
    const name = `${meta.name}.${nanos.toString(16)}`; // kube: <name>.<unix nanos in hex>
    const body = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: {
        apiVersion: obj.apiVersion,
        kind: obj.kind,
        namespace: meta.namespace,
        name: meta.name,
        uid: meta.uid,
        resourceVersion: meta.resourceVersion,
      },
      type,
      reason,
      message,
      source: this.source,
      reportingComponent: this.source.component,
      reportingInstance: this.source.host ?? '',
      count: 1,
      firstTimestamp: formatKubeTime(now),
      lastTimestamp: formatKubeTime(now),
    } as unknown as CoreV1Event;
    await this.core.createNamespacedEvent({ namespace, body });
    this.remember(id, { namespace, name, count: 1, at: now.getTime() });
  }

  private remember(id: string, s: Seen): void {
    if (this.seen.size >= MAX_REMEMBERED) this.seen.delete(this.seen.keys().next().value!);
    this.seen.set(id, s);
  }
}
