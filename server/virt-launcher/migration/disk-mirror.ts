/**
 * Node-local disks move with the guest (libvirt's NBD flow). The target exports its fresh
 * overlays (same base image) writable over NBD; the source mirrors the allocated data of each
 * writable disk's top layer there (`blockdev-mirror`, sync `top`), waits for the jobs to be
 * READY and then starts the RAM migration with `pause-before-switchover`: once the source's vCPUs
 * are stopped it completes the mirrors (`block-job-cancel` on a READY job finishes the copy
 * without a pivot) and lets the migration switch over, so the target resumes with every write.
 */
import type { QmpClient, QmpEvent } from '../qmp-client';
import { MIRROR_READY_TIMEOUT_MS } from '../protocol';

/** The launcher names every disk's format node `drive-<disk name>` (qemu-args-disks.ts). */
const DISK_NODE_PREFIX = 'drive-';
const MIRROR_PREFIX = 'mirror-';
/** How long the first pass of the copy may take before the migration is given up. */

const ABORT_TIMEOUT_MS = 5_000;

interface NamedNode { 'node-name'?: string; ro?: boolean }

/** Writable node-local disks of this domain (overlays, emptyDisks, ReadWriteOnce claims); `shared` ones stay put. */
export async function listWritableDisks(qmp: QmpClient, shared: string[] = []): Promise<string[]> {
  const nodes = await qmp.execute<NamedNode[]>('query-named-block-nodes', { flat: true });
  return nodes.map((n) => n['node-name'] ?? '').filter((name, i) => name.startsWith(DISK_NODE_PREFIX) && nodes[i].ro !== true && !shared.includes(name));
}

/** Target: NBD server on host:port exporting each writable disk (export name = node name). */
export async function exportDisks(qmp: QmpClient, host: string, port: number, disks: string[]): Promise<void> {
  await qmp.execute('nbd-server-start', { addr: { type: 'inet', data: { host, port: String(port) } } });
  for (const node of disks) await qmp.execute('block-export-add', { type: 'nbd', id: node, 'node-name': node, name: node, writable: true });
}

/** Target, once the guest runs here: stop serving the disks (best effort). */
export async function unexportDisks(qmp: QmpClient, disks: string[]): Promise<void> {
  for (const node of disks) await qmp.execute('block-export-del', { id: node, mode: 'hard' }).catch(() => undefined);
  await qmp.execute('nbd-server-stop').catch(() => undefined);
}

type EventSource = { on(e: 'qmpEvent', f: (e: QmpEvent) => void): unknown; off(e: 'qmpEvent', f: (e: QmpEvent) => void): unknown };

/** A job's failure in `e`, if it reports one (an error event, or completion with an error). */
function jobFailure(e: QmpEvent): string | undefined {
  if (e.event === 'BLOCK_JOB_ERROR') return String(e.data?.operation ?? 'I/O error');
  if (e.event === 'BLOCK_JOB_COMPLETED' && e.data?.error) return String(e.data.error);
  return undefined;
}

/** Resolves when every job reported one of `events` (error on a job failing first, unless `tolerateFailure`, or the bound passing). */
function waitForJobs(src: EventSource, jobs: string[], events: string[], timeoutMs: number, tolerateFailure = false): { done: Promise<void>; cancel: () => void } {
  const pending = new Set(jobs);
  let finish: (err?: Error) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`disk mirror: no ${events.join('/')} within ${timeoutMs} ms for ${[...pending].join(', ')}`)), timeoutMs);
    const onEvent = (e: QmpEvent) => {
      const job = String(e.data?.device ?? e.data?.id ?? '');
      if (!pending.has(job)) return;
      const failure = tolerateFailure ? undefined : jobFailure(e);
      if (failure) return finish(new Error(`disk mirror ${job} failed: ${failure}`));
      if (!events.includes(e.event)) return;
      pending.delete(job);
      if (pending.size === 0) finish();
    };
    finish = (err) => { clearTimeout(timer); src.off('qmpEvent', onEvent); if (err) reject(err); else resolve(); };
    src.on('qmpEvent', onEvent);
    if (pending.size === 0) finish();
  });
  return { done, cancel: () => finish(new Error('cancelled')) };
}

export interface DiskMirror {
  jobs: string[];
  /** at pre-switchover (source paused): finish the copies and drop the NBD connections. */
  complete(): Promise<void>;
  /** the migration failed or was cancelled: stop the copies (best effort). */
  abort(): Promise<void>;
}

/** Source: mirror each disk to the target's NBD export and resolve once all copies caught up. */
export async function startDiskMirror(qmp: QmpClient, events: EventSource, host: string, port: number, disks: string[]): Promise<DiskMirror> {
  const jobs = disks.map((d) => `${MIRROR_PREFIX}${d}`);
  const ready = waitForJobs(events, jobs, ['BLOCK_JOB_READY'], MIRROR_READY_TIMEOUT_MS);
  const mirror: DiskMirror = {
    jobs,
    complete: async () => {
      const completed = waitForJobs(events, jobs, ['BLOCK_JOB_COMPLETED'], MIRROR_READY_TIMEOUT_MS);
      for (const job of jobs) await qmp.execute('block-job-cancel', { device: job });
      await completed.done;
      for (const job of jobs) await qmp.execute('blockdev-del', { 'node-name': job }).catch(() => undefined);
    },
    abort: async () => {
      const gone = waitForJobs(events, jobs, ['BLOCK_JOB_CANCELLED', 'BLOCK_JOB_COMPLETED'], ABORT_TIMEOUT_MS, true);
      for (const job of jobs) await qmp.execute('block-job-cancel', { device: job, force: true }).catch(() => undefined);
      await gone.done.catch(() => undefined);
      for (const job of jobs) await qmp.execute('blockdev-del', { 'node-name': job }).catch(() => undefined);
    },
  };
  try {
    for (const [i, node] of disks.entries()) {
      const job = jobs[i];
      await qmp.execute('blockdev-add', { driver: 'nbd', 'node-name': job, server: { type: 'inet', host, port: String(port) }, export: node });
      // top: only what this disk's own layer holds (the target's overlay sits on the same base image)
      await qmp.execute('blockdev-mirror', { 'job-id': job, device: node, target: job, sync: 'top' });
    }
    await ready.done;
    return mirror;
  } catch (err) {
    ready.cancel();
    await ready.done.catch(() => undefined);
    await mirror.abort();
    throw err;
  }
}
