import type { V1Container, V1EnvVar, V1Pod } from '@kubernetes/client-node';

export const POD_IP = '127.0.0.1';
export const HOST_IP = '127.0.0.1';
/**
 * Variables a host process needs from the kubelet's environment (a container image would bring its
 * own); KV_BUNDLE: the `kv` build the cluster runs (server/bundle/pin-bundle.ts), its "image".
 */
const INHERITED_ENV = ['PATH', 'HOME', 'LANG', 'TMPDIR', 'TZ', 'KV_LOG_LEVEL', 'KV_BUNDLE'];

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
}

export interface ContainerLaunch {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

function fieldRefValue(pod: V1Pod, path: string, podIP: string): string {
  const m = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (m) return pod.metadata?.[m[1] as 'labels' | 'annotations']?.[m[2]] ?? '';
  const fields: Record<string, string | undefined> = {
    'metadata.name': pod.metadata?.name,
    'metadata.namespace': pod.metadata?.namespace,
    'metadata.uid': pod.metadata?.uid,
    'spec.nodeName': pod.spec?.nodeName,
    'spec.serviceAccountName': pod.spec?.serviceAccountName,
    'status.podIP': podIP,
    'status.hostIP': HOST_IP,
  };
  return fields[path] ?? '';
}

/** kube's $(VAR) expansion: defined variables are replaced, `$$` escapes, unknown references stay. */
export function expandVars(s: string, vars: Record<string, string>): string {
  return s.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (whole, name?: string) => {
    if (whole === '$$') return '$';
    return name !== undefined && Object.hasOwn(vars, name) ? vars[name] : whole;
  });
}

function containerEnv(pod: V1Pod, env: V1EnvVar[] | undefined, base: Record<string, string>, podIP: string): Record<string, string> {
  const out = { ...base };
  for (const e of env ?? []) {
    if (e.valueFrom?.fieldRef) out[e.name] = fieldRefValue(pod, e.valueFrom.fieldRef.fieldPath, podIP);
    else out[e.name] = expandVars(e.value ?? '', out);
  }
  return out;
}

/**
 * How to run a container as a host process: command + args ($(VAR)-expanded), the pod's env on top
 * of the node's (KV_POD_DIR, KV_NODE_NAME, KV_DATA_DIR, POD_NAME, POD_NAMESPACE, POD_UID), and the
 * working dir (the pod dir unless the container names one). Never goes through a shell.
 */
export function resolveContainerLaunch(pod: V1Pod, container: V1Container, ctx: LaunchContext): ContainerLaunch | { error: string } {
  const base: Record<string, string> = {};
  for (const k of INHERITED_ENV) if (ctx.hostEnv[k] !== undefined) base[k] = ctx.hostEnv[k]!;
  Object.assign(base, {
    KV_POD_DIR: ctx.podDir,
    KV_NODE_NAME: ctx.nodeName,
    KV_DATA_DIR: ctx.dataDir,
    POD_NAME: pod.metadata?.name ?? '',
    POD_NAMESPACE: pod.metadata?.namespace ?? '',
    POD_UID: pod.metadata?.uid ?? '',
  });
  const env = containerEnv(pod, container.env, base, ctx.podIP ?? POD_IP);
  const argv = [...(container.command ?? []), ...(container.args ?? [])].map((a) => expandVars(a, env));
  if (argv.length === 0) return { error: `container "${container.name}" has no command: images have no entrypoint on a process node` };
  const [cmd, ...args] = argv;
  const cwd = container.workingDir || ctx.podDir;
  if (cmd === 'kv') return { file: ctx.nodeExecutable, args: [ctx.kvScript, ...args], env, cwd };
  return { file: cmd, args, env, cwd };
}
