import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { KubeConfig } from '@kubernetes/client-node';
import { dataPaths, defaultDataDir } from '../data-dir';
import { loadKubeConfig } from '../kube/kubeconfig';

type FlagSpec = Record<string, { type: 'string' | 'boolean'; default?: string | boolean }>;

/** Parse `--flag value` / `--flag=value` / `--bool` flags; unknown flags are an error (exit 2 by the caller). */
export function parseFlags<T extends FlagSpec>(argv: string[], spec: T) {
  const { values } = parseArgs({ args: argv, options: { 'data-dir': { type: 'string' }, kubeconfig: { type: 'string' }, ...spec }, strict: true, allowPositionals: false });
  return values as unknown as Record<keyof T | 'data-dir' | 'kubeconfig', string | boolean | undefined>;
}

/** --kubeconfig, else DIR/kubeconfig when present, else $KUBECONFIG / in-cluster / ~/.kube/config. */
export function kubeConfigFromFlags(flags: { kubeconfig?: unknown; 'data-dir'?: unknown }): KubeConfig {
  if (typeof flags.kubeconfig === 'string') return loadKubeConfig(flags.kubeconfig);
  const inDataDir = dataPaths(dataDirFromFlags(flags)).kubeconfig;
  return loadKubeConfig(existsSync(inDataDir) && !process.env.KUBECONFIG ? inDataDir : undefined);
}

export function dataDirFromFlags(flags: { 'data-dir'?: unknown }): string {
  return typeof flags['data-dir'] === 'string' ? flags['data-dir'] : defaultDataDir();
}
