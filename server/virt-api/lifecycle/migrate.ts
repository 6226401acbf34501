/** PURE: the `migrate` subresource (KubeVirt's MigrateVMRequestHandler, §4.3): creates a VMIM. */
import { KUBEVIRT_API_VERSION, refuseMigrate } from '../../../lib/kubevirt';
import type { VirtualMachine, VirtualMachineInstance } from '../../../lib/kubevirt';
import { refusalError } from '../api-error';
import type { MigrateOptions } from './options';
import type { Write } from './writes';

export const MIGRATION_NAME_PREFIX = 'kubevirt-migrate-vm-';

export function planMigrate(vm: VirtualMachine, vmi: VirtualMachineInstance | undefined, opts: MigrateOptions): Write[] {
  const name = vm.metadata.name ?? '';
  const refused = refuseMigrate(vmi);
  if (refused) throw refusalError(refused, name);
  const spec: Record<string, unknown> = { vmiName: name };
  if (opts.addedNodeSelector && Object.keys(opts.addedNodeSelector).length) spec.addedNodeSelector = opts.addedNodeSelector;
  return [{
    kind: 'create-migration',
    body: {
      apiVersion: KUBEVIRT_API_VERSION, kind: 'VirtualMachineInstanceMigration',
      metadata: { generateName: MIGRATION_NAME_PREFIX, namespace: vm.metadata.namespace },
      spec,
    },
  }];
}
