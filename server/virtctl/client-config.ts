/**
 * Which cluster and namespace a virtctl command talks to, as kubectl and KubeVirt's virtctl decide:
 * --kubeconfig, then $KUBECONFIG, then ~/.kube/config; when none exists, the kubeconfig of the
 * local `kv up` cluster (its data dir). The namespace is -n/--namespace, else the context's, else
 * "default".
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { dataPaths, defaultDataDir } from '../data-dir';
import { loadKubeConfig } from '../kube/kubeconfig';
import { VirtctlError } from './virtctl-error';

export interface GlobalFlags {
  kubeconfig?: string;
  namespace?: string;
  context?: string;
}

export interface ClientConfig {
  kc: KubeConfig;
  namespace: string;
}

export function kubeconfigPath(flags: GlobalFlags, env: NodeJS.ProcessEnv = process.env, home = homedir()): string | undefined {
  if (flags.kubeconfig) return flags.kubeconfig;
  const fromEnv = env.KUBECONFIG?.split(':').find((p) => p !== '');
  if (fromEnv) return fromEnv;
  const userConfig = join(home, '.kube', 'config');
  if (existsSync(userConfig)) return userConfig;
  const local = dataPaths(defaultDataDir()).kubeconfig;
  return existsSync(local) ? local : undefined;
}

export function loadClientConfig(flags: GlobalFlags): ClientConfig {
  const path = kubeconfigPath(flags);
  if (!path) throw new VirtctlError('cannot obtain KubeVirt client: no kubeconfig found (pass --kubeconfig, set KUBECONFIG, or run `kv up`)');
  let kc: KubeConfig;
  try {
    kc = loadKubeConfig(path);
  } catch (err) {
    throw new VirtctlError(`cannot obtain KubeVirt client: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (flags.context) {
    if (!kc.getContextObject(flags.context)) throw new VirtctlError(`cannot obtain KubeVirt client: context "${flags.context}" does not exist`);
    kc.setCurrentContext(flags.context);
  }
  const namespace = flags.namespace ?? kc.getContextObject(kc.getCurrentContext())?.namespace ?? 'default';
  return { kc, namespace };
}
