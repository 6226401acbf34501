import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataPaths } from '../data-dir';

/**
 * Whether the node's cached KVM probe (`DIR/nodes/<node>/kvm-probe.json`, written by
 * server/virt-launcher/kvm-probe.ts) says KVM boots guests. Undefined while there is no result.
 * Accepts `{ usable: bool }`, `{ kvm: bool }` or `{ accelerator: 'kvm' | 'tcg' }`.
 */
export function readKvmProbe(dataDir: string, node: string): boolean | undefined {
  try {
    const r = JSON.parse(readFileSync(join(dataPaths(dataDir).node(node), 'kvm-probe.json'), 'utf8')) as Record<string, unknown>;
    if (typeof r.usable === 'boolean') return r.usable;
    if (typeof r.kvm === 'boolean') return r.kvm;
    if (typeof r.accelerator === 'string') return r.accelerator === 'kvm';
    return undefined;
  } catch {
    return undefined;
  }
}
