import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** How a container ended: exit code, kube's reason (Completed, Error, StartError, ...) and a message. */
export interface ContainerExit {
  exitCode: number;
  signal?: string;
  reason: string;
  message?: string;
  startedAt?: string;
  finishedAt: string;
}

/** What `<pod dir>/state.json` holds: enough to re-adopt the process after a kubelet restart. */
export interface PodState {
  uid: string;
  key: string;
  container: string;
  pid?: number;
  /** /proc/<pid>/stat start time: the pid is ours only while this matches. */
  startTime?: string;
  startedAt?: string;
  restartCount: number;
  /** The pod's address on the pod network (unset: the pod shares the host's network). */
  podIP?: string;
  /** The pod's network namespace (ip netns name). */
  netns?: string;
  /** Set once the current container has ended (persisted so a restarted kubelet still knows). */
  exit?: ContainerExit;
  lastExit?: ContainerExit;
  /** The Pod cgroup's OOM-kill count when the current container started (a restarted kubelet still knows). */
  oomKillsAtStart?: number;
  /** Set when the eviction manager evicted the Pod: it ends Failed with reason Evicted and is never restarted. */
  evicted?: { message: string; at: string };
}

/** The kubelet's in-memory record of one pod it runs. */
export interface PodRuntime extends PodState {
  dir: string;
  /** Not before this time (ms) may the container be restarted (crash-loop backoff). */
  restartAt?: number;
  terminating?: { since: number; graceMs: number; killed: boolean };
  /** set when the kubelet refused to run the container's image (it stays Waiting with this reason) */
  refused?: { reason: string; message: string };
  /** what the container waits for while its images are pulled (ErrImagePull, ImagePullBackOff) */
  pullWait?: { reason: string; message: string };
  /** what the Pod's volumes are waiting for (told once as a FailedMount event) */
  volumeWait?: string;
  /** what the container's env and volumes were made from (container-config.ts); in memory only */
  config?: import('./container-config').ContainerConfig;
  /** Only for processes this kubelet process spawned (adopted ones are polled). */
  child?: ChildProcess;
  /** the container was spawned through the cgroup-joining wrapper, which may not have exec'd yet */
  joining?: boolean;
  /** when this kubelet took the Pod in: its status.startTime, also when the first status write comes later; in memory only */
  acknowledgedAt?: string;
}

export const STATE_FILE = 'state.json';
export const TERMINATION_FILE = 'termination.json';

export function podsDirOf(nodeDir: string): string {
  return join(nodeDir, 'pods');
}

export function writePodState(rt: PodRuntime): void {
  const { uid, key, container, pid, startTime, startedAt, restartCount, podIP, netns, exit, lastExit, oomKillsAtStart, evicted } = rt;
  const state: PodState = { uid, key, container, pid, startTime, startedAt, restartCount, podIP, netns, exit, lastExit, oomKillsAtStart, evicted };
  mkdirSync(rt.dir, { recursive: true });
  const tmp = join(rt.dir, `${STATE_FILE}.tmp`);
  writeFileSync(tmp, JSON.stringify(state));
  renameSync(tmp, join(rt.dir, STATE_FILE));
}

export function readPodState(dir: string): PodState | undefined {
  try {
    const s = JSON.parse(readFileSync(join(dir, STATE_FILE), 'utf8')) as PodState;
    return typeof s.uid === 'string' && typeof s.key === 'string' ? s : undefined;
  } catch {
    return undefined;
  }
}

/** Pod dirs on this node: uid → dir (names that are not pod UIDs are ignored). */
export function listPodDirs(nodeDir: string): Map<string, string> {
  const out = new Map<string, string>();
  try {
    for (const e of readdirSync(podsDirOf(nodeDir), { withFileTypes: true })) {
      if (e.isDirectory() && /^[A-Za-z0-9-]+$/.test(e.name)) out.set(e.name, join(podsDirOf(nodeDir), e.name));
    }
  } catch {
    // no pods dir yet
  }
  return out;
}

/** What the container wrote in `<pod dir>/termination.json` ({reason?, message?, exitCode?}), if anything. */
export function readTerminationFile(dir: string): { reason?: string; message?: string; exitCode?: number } | undefined {
  try {
    const t = JSON.parse(readFileSync(join(dir, TERMINATION_FILE), 'utf8')) as Record<string, unknown>;
    return {
      reason: typeof t.reason === 'string' ? t.reason : undefined,
      message: typeof t.message === 'string' ? t.message : undefined,
      exitCode: typeof t.exitCode === 'number' ? t.exitCode : undefined,
    };
  } catch {
    return undefined;
  }
}
