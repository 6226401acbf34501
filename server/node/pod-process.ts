import { spawn } from 'node:child_process';
import { closeSync, mkdirSync } from 'node:fs';
import { openContainerLog } from './container-log-pipe';
import { formatKubeTime } from '../kube/time';
import type { ContainerLaunch } from './pod-command';
import { isSameProcessAlive, readProcessStartTime } from './proc-stat';
import { readTerminationFile, writePodState, type ContainerExit, type PodRuntime } from './pod-runtime';

const SIGNAL_NUMBERS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGABRT: 6, SIGKILL: 9, SIGSEGV: 11, SIGPIPE: 13, SIGTERM: 15 };

/** kube's terminated state for an exit: 128+signal for a signal, reason Completed/Error, termination.json on top. */
export function describeExit(rt: PodRuntime, code: number | null, signal: string | null): ContainerExit {
  const exitCode = code ?? 128 + (SIGNAL_NUMBERS[signal ?? ''] ?? 0);
  const t = readTerminationFile(rt.dir);
  return {
    exitCode: t?.exitCode ?? exitCode,
    signal: signal ?? undefined,
    reason: t?.reason ?? (exitCode === 0 ? 'Completed' : 'Error'),
    message: t?.message,
    startedAt: rt.startedAt,
    finishedAt: formatKubeTime(),
  };
}

/** The exit of an adopted process that died while we were not its parent: the code is lost. */
export function describeLostExit(rt: PodRuntime): ContainerExit {
  const t = readTerminationFile(rt.dir);
  return {
    exitCode: t?.exitCode ?? 137,
    reason: t?.reason ?? 'ContainerStatusUnknown',
    message: t?.message ?? 'The container could not be located when the pod was terminated',
    startedAt: rt.startedAt,
    finishedAt: formatKubeTime(),
  };
}

/**
 * Start the container as a detached host process (own session and process group, so it outlives
 * the kubelet), stdout/stderr as CRI records in `<pod dir>/<container>.log` (container-log-pipe.ts),
 * and record state.json.
 * `onExit` fires once when the process ends (or fails to start).
 */
export function startContainer(rt: PodRuntime, launch: ContainerLaunch, onExit: (exit: ContainerExit) => void): void {
  mkdirSync(rt.dir, { recursive: true });
  const logFds = openContainerLog(rt.dir, rt.container);
  let reported = false;
  const report = (exit: ContainerExit) => {
    if (reported) return;
    reported = true;
    onExit(exit);
  };
  try {
    const child = spawn(launch.file, launch.args, { cwd: launch.cwd, env: launch.env as NodeJS.ProcessEnv, detached: true, stdio: ['ignore', logFds.stdout, logFds.stderr] });
    rt.child = child;
    rt.pid = child.pid;
    rt.startTime = child.pid ? readProcessStartTime(child.pid) : undefined;
    rt.startedAt = formatKubeTime();
    rt.exit = undefined;
    child.unref();
    child.on('error', (err: NodeJS.ErrnoException) => {
      const message = err.code === 'ENOENT' ? `exec: "${launch.file}": executable file not found in $PATH` : err.message;
      report({ exitCode: 128, reason: 'StartError', message, finishedAt: formatKubeTime() });
    });
    child.on('exit', (code, signal) => report(describeExit(rt, code, signal)));
  } finally {
    closeSync(logFds.stdout);
    closeSync(logFds.stderr);
  }
  writePodState(rt);
}

/** Whether the runtime's recorded process is still the live one (pid + start time). */
export function isContainerRunning(rt: PodRuntime): boolean {
  if (rt.exit || !rt.pid) return false;
  if (!rt.startTime) return rt.child !== undefined && rt.child.exitCode === null && rt.child.signalCode === null;
  return isSameProcessAlive(rt.pid, rt.startTime);
}
