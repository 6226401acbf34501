/**
 * Cluster mode (`kv handler --clean-pod-dirs`): removes the pod dirs `<DIR>/nodes/<node>/pods/<uid>/`
 * whose launcher Pod no longer exists. A real kubelet leaves a hostPath subPath behind when its Pod
 * goes, so without this every launcher that ever ran on the node keeps its dir (sockets,
 * termination.json) on the host. Under `kv up` the process kubelet removes them itself.
 *
 * The directory is read before the Pods are listed: a Pod is created before its dir, so a dir seen
 * first whose Pod is missing from the later list belongs to a Pod that is gone, never to one that
 * is still being started. Only names shaped like Pod UIDs are touched.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CoreV1Api } from '@kubernetes/client-node';
import { dataPaths } from '../data-dir';
import { log } from '../log';

const UID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const SWEEP_INTERVAL_MS = 15_000;

const logger = log.child({ component: 'virt-handler-pod-dirs' });

/** PURE: the dir names that are Pod UIDs no live Pod has. */
export function staleDirNames(names: readonly string[], liveUIDs: ReadonlySet<string>): string[] {
  return names.filter((n) => UID_SHAPE.test(n) && !liveUIDs.has(n));
}

export interface SweepOptions {
  dataDir: string;
  node: string;
  /** UIDs of every Pod bound to the node, straight from the API server */
  listPodUIDs: () => Promise<Set<string>>;
}

/** One pass; resolves with the UIDs whose dirs were removed. */
export async function sweepPodDirs(o: SweepOptions): Promise<string[]> {
  const pods = join(dataPaths(o.dataDir).node(o.node), 'pods');
  let names: string[];
  try {
    names = readdirSync(pods);
  } catch {
    return []; // no launcher ran on this node yet
  }
  if (!names.length) return [];
  const stale = staleDirNames(names, await o.listPodUIDs());
  for (const uid of stale) rmSync(join(pods, uid), { recursive: true, force: true });
  if (stale.length) logger.info({ node: o.node, removed: stale }, 'removed the pod dirs of launcher Pods that are gone');
  return stale;
}

/** The UIDs of the Pods bound to `node` (virt-handler's ClusterRole lists Pods). */
export function nodePodUIDs(core: Pick<CoreV1Api, 'listPodForAllNamespaces'>, node: string): () => Promise<Set<string>> {
  return async () => {
    const list = await core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${node}` });
    return new Set(list.items.flatMap((p) => (p.metadata?.uid ? [p.metadata.uid] : [])));
  };
}

/** Sweeps now and every `intervalMs` until `signal` aborts; a failed pass is logged and retried. */
export function runPodDirSweeper(o: SweepOptions, signal: AbortSignal, intervalMs = SWEEP_INTERVAL_MS): void {
  const pass = () => { sweepPodDirs(o).catch((err: Error) => logger.warn({ node: o.node, err: err.message }, 'pod dir sweep failed')); };
  pass();
  const timer = setInterval(pass, intervalMs);
  timer.unref();
  signal.addEventListener('abort', () => clearInterval(timer), { once: true });
}
