import { accessSync, constants, statSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { containerEnv, EnvConfigError, expandVars, type EnvSources } from './pod-env';

export { expandVars };

export const POD_IP = '127.0.0.1';
export const HOST_IP = '127.0.0.1';
/**
 * Variables a host process needs from the kubelet's environment (a container image would bring its
 * own); KV_BUNDLE: the `kv` build the cluster runs (server/bundle/pin-bundle.ts), its "image";
 * KV_QEMU_UID/KV_QEMU_GID: the user a launcher's QEMU drops to (server/virt-launcher/qemu-user.ts).
 */
const INHERITED_ENV = ['PATH', 'HOME', 'LANG', 'TMPDIR', 'TZ', 'KV_LOG_LEVEL', 'KV_BUNDLE', 'KV_QEMU_UID', 'KV_QEMU_GID'];

export interface LaunchContext {
  podDir: string;
  nodeName: string;
  dataDir: string;
  /** Absolute path of bin/kv.mjs; container command `kv` runs it with `nodeExecutable`. */
  kvScript: string;
  nodeExecutable: string;
  hostEnv: Record<string, string | undefined>;
  /** The pod's address on the pod network (status.podIP); 127.0.0.1 when it shares the host's. */
  podIP?: string;
  /** what the Pod's env names (ConfigMaps, Secrets, Services); without it only plain values and fieldRefs */
  sources?: Omit<EnvSources, 'podIP' | 'hostIP'>;
  /**
   * The container runs kubevirt-ts's own image (project-image.ts): it gets exactly a container's
   * env (the Pod's, the Service links and the image's PATH/HOME), none of the node's KV_* extras.
   */
  asContainer?: boolean;
}

export interface ContainerLaunch {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/**
 * How to run a container as a host process: command + args ($(VAR)-expanded), the pod's env on top
 * of the node's (KV_POD_DIR, KV_NODE_NAME, KV_DATA_DIR, POD_NAME, POD_NAMESPACE, POD_UID), and the
 * working dir (the pod dir unless the container names one). Never goes through a shell.
 */
export function resolveContainerLaunch(pod: V1Pod, container: V1Container, ctx: LaunchContext): ContainerLaunch | { error: string; reason?: string } {
  const base: Record<string, string> = {};
  for (const k of INHERITED_ENV) if (ctx.hostEnv[k] !== undefined) base[k] = ctx.hostEnv[k]!;
  if (!ctx.asContainer) Object.assign(base, {
    KV_POD_DIR: ctx.podDir,
    KV_NODE_NAME: ctx.nodeName,
    KV_DATA_DIR: ctx.dataDir,
    POD_NAME: pod.metadata?.name ?? '',
    POD_NAMESPACE: pod.metadata?.namespace ?? '',
    POD_UID: pod.metadata?.uid ?? '',
  });
  const sources: EnvSources = { configMaps: new Map(), secrets: new Map(), services: [], ...ctx.sources, podIP: ctx.podIP ?? POD_IP, hostIP: HOST_IP };
  let env: Record<string, string>;
  try {
    env = containerEnv(pod, container, base, sources);
  } catch (err) {
    if (err instanceof EnvConfigError) return { error: err.message, reason: 'CreateContainerConfigError' };
    throw err;
  }
  // the project image's entrypoint is `kv` (deploy/images/Dockerfile)
  const command = container.command?.length ? container.command : ctx.asContainer ? ['kv'] : [];
  const argv = [...command, ...(container.args ?? [])].map((a) => expandVars(a, env));
  if (argv.length === 0) return { error: `container "${container.name}" has no command: images have no entrypoint on a process node` };
  const [cmd, ...args] = argv;
  const cwd = container.workingDir || ctx.podDir;
  if (cmd === 'kv') return { file: ctx.nodeExecutable, args: [ctx.kvScript, ...args], env, cwd };
  return { file: cmd, args, env, cwd };
}

/**
 * Why the container's executable cannot run, as the runtime says it before starting anything
 * (`exec: "x": executable file not found in $PATH`), or undefined. The kubelet starts containers
 * through wrappers (the cgroup join, namespaces), so a missing command would otherwise end as the
 * wrapper's exit 127 instead of a StartError. A name is looked up in the container's PATH; a path
 * is checked relative to its working dir (`checkPaths` false when mounts may still bring it).
 */
export function executableProblem(file: string, env: Record<string, string>, cwd: string, checkPaths = true): string | undefined {
  const runnable = (p: string) => {
    try {
      accessSync(p, constants.X_OK);
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
  if (file.includes('/')) return !checkPaths || runnable(resolvePath(cwd, file)) ? undefined : `exec: "${file}": stat ${file}: no such file or directory`;
  const dirs = (env.PATH ?? process.env.PATH ?? '').split(':').filter(Boolean);
  return dirs.some((d) => runnable(join(d, file))) ? undefined : `exec: "${file}": executable file not found in $PATH`;
}
