/**
 * `virtctl migrate-cancel VM`: deletes the VM's migration that has not finished (KubeVirt finds it
 * by the kubevirt.io/vmi-name label and skips Succeeded/Failed ones).
 */
import { CustomObjectsApi, type KubernetesObject } from '@kubernetes/client-node';
import { Label } from '../../../lib/kubevirt/labels';
import { VirtualMachineInstanceMigrationResource } from '../../../lib/kubevirt/resources';
import { messageOf } from '../../kube/api-errors';
import { CustomResourceClient } from '../../kube/clients';
import { loadClientConfig } from '../client-config';
import { exactArgs, parseFlags } from '../flags';
import { VirtctlError } from '../virtctl-error';
import type { Output } from '../output';

type Migration = KubernetesObject & { status?: { phase?: string } };
const FINAL = new Set(['Succeeded', 'Failed']);

export async function migrateCancelCommand(argv: string[], out: Output): Promise<void> {
  const { global, values, positionals } = parseFlags(argv, { 'dry-run': { type: 'boolean' } });
  const [name] = exactArgs(positionals, 1);
  const { kc, namespace } = loadClientConfig(global);
  const migrations = new CustomResourceClient<Migration>(kc.makeApiClient(CustomObjectsApi), VirtualMachineInstanceMigrationResource);
  let items: Migration[];
  try {
    items = (await migrations.list(namespace, { labelSelector: `${Label.VMIName}==${name}` })).items;
  } catch (err) {
    throw new VirtctlError(`Error fetching virtual machine instance migration list  ${messageOf(err)}`);
  }
  const open = items.find((m) => !FINAL.has(m.status?.phase ?? ''));
  if (!open?.metadata?.name) throw new VirtctlError(`Found no migration to cancel for ${name}`);
  if (values['dry-run'] !== true) {
    try {
      await migrations.delete(namespace, open.metadata.name);
    } catch (err) {
      throw new VirtctlError(`Error canceling migration ${open.metadata.name} of a VirtualMachine ${name}: ${messageOf(err)}`);
    }
  }
  out.stdout(`VM ${name} was scheduled to migrate-cancel\n`);
}
