/**
 * What a VMI's guest wrote on its serial console, read from the launcher Pods' `guest-console-log`
 * files on the VMI's node (after a migration, the target's). The files hold CRI records: a line the
 * guest wrote in two pieces is two records (P, then F), joined back by criLogText.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { criLogText } from '../../server/kube/cri-log';
import { callRest, type Endpoint } from './rest';
import { readVMI } from './vm-fixtures';

export async function guestConsoleLog(ep: Endpoint, dataDir: string, ns: string, name: string): Promise<string> {
  const vmi = await readVMI(ep, name);
  if (!vmi?.metadata?.uid) return '';
  const node = vmi.status?.nodeName;
  const pods = ((await callRest(ep, 'GET', `/api/v1/namespaces/${ns}/pods?labelSelector=${encodeURIComponent(`kubevirt.io/created-by=${vmi.metadata.uid}`)}`)).body?.items ?? [])
    .filter((p: { spec: { nodeName?: string } }) => !node || p.spec.nodeName === node);
  let out = '';
  for (const pod of pods) {
    try {
      out += criLogText(readFileSync(join(dataDir, 'nodes', pod.spec.nodeName, 'pods', pod.metadata.uid, 'guest-console-log.log')));
    } catch {
      // not written yet
    }
  }
  return out;
}
