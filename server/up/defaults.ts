/**
 * The embedded cluster's defaults: the KubeVirt CR, the common instance types and preferences, the
 * storage classes. `kv up` applies them from a short-lived `kv defaults` child (apply-defaults.ts).
 * Every step is idempotent: running it again changes nothing.
 */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { dataPaths, defaultDataDir } from '../data-dir';
import { loadKubeConfig } from '../kube/kubeconfig';
import { ensureKubeVirtCR } from './kubevirt-cr';
import { ensureStorageClasses } from './storage-classes';
import { ensureCommonInstancetypes } from './common-instancetypes';

/** `kv defaults [--data-dir DIR]`: applies the defaults and prints what it did on one line. */
export async function runDefaultsCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { 'data-dir': { type: 'string' }, bare: { type: 'boolean', default: false } }, strict: true });
  const kc = loadKubeConfig(dataPaths(resolve(values['data-dir'] ?? defaultDataDir())).kubeconfig);
  if (values.bare) {
    // a bare cluster has no KubeVirt CRD: only what kind gives (storage classes)
    process.stdout.write(`bare cluster: no KubeVirt component or CRD; ${await ensureStorageClasses(kc)} storage classes created\n`);
    return;
  }
  const cr = await ensureKubeVirtCR(kc);
  const types = await ensureCommonInstancetypes(kc);
  const classes = await ensureStorageClasses(kc);
  process.stdout.write(`KubeVirt CR kubevirt/kubevirt ${cr}; ${types} common instance types and preferences created; ${classes} storage classes created\n`);
}
