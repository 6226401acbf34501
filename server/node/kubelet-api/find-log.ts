/**
 * Which file holds a container's log on this node (`<pod dir>/<container>.log`, or with `previous`
 * the last run's `<container>.previous.log`; written by the
 * container's process; a launcher's `guest-console-log` file is written by the launcher), with the
 * kubelet's answers when there is none.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { isContainerRunning } from '../pod-process';
import type { PodRuntime } from '../pod-runtime';
import type { LogLocation } from './server';
import { previousContainerLogFile } from '../container-log-pipe';

export function findContainerLog(pod: V1Pod | undefined, runtimes: Iterable<PodRuntime>, namespace: string, name: string, container: string, previous = false): LogLocation {
  if (!pod) return { code: 404, message: `pod "${name}" in namespace "${namespace}" not found on this node` };
  const names = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].map((c) => c.name);
  if (!names.includes(container)) return { code: 404, message: `container "${container}" in pod "${name}" is not available` };
  const rt = [...runtimes].find((r) => r.uid === pod.metadata?.uid);
  if (previous) {
    const file = rt && previousContainerLogFile(rt.dir, container);
    if (!file || !existsSync(file)) return { code: 400, message: `previous terminated container "${container}" in pod "${name}" not found` };
    return { file, isRunning: () => false };
  }
  const file = rt && join(rt.dir, `${container}.log`);
  if (!rt || !file || (!rt.pid && !existsSync(file))) {
    const waiting = rt?.refused?.reason ?? 'ContainerCreating';
    return { code: 400, message: `container "${container}" in pod "${name}" is waiting to start: ${waiting}` };
  }
  return { file, isRunning: () => isContainerRunning(rt) };
}
