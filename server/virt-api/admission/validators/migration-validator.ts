/**
 * VirtualMachineInstanceMigration admission (KubeVirt migration-create/update admitters).
 * The lookups are injected so the rules stay pure and testable.
 */
import { forbidden, invalid, notSupported, required, type Cause } from '../cause';
import { isObject, objectAt, stringAt } from '../json-shape';
import { isKubeVirtServiceAccount } from '../admission-config';
import { hasCondition, isMigrationFinal, isVMIFinal, findCondition } from '../../../../lib/kubevirt/conditions';
import { Label } from '../../../../lib/kubevirt/labels';
import type { VirtualMachineInstance } from '../../../../lib/kubevirt/vmi-types';
import type { VirtualMachineInstanceMigration } from '../../../../lib/kubevirt/migration-types';
import { checkSchema } from './schema-check';
import { migrationSpecSchema, OBJECT_META_SCHEMA } from './admission-schemas';
import { canonical, type ValidationContext } from './vmi-validator';

export interface MigrationLookups {
  getVMI(namespace: string, name: string): Promise<VirtualMachineInstance | undefined> | VirtualMachineInstance | undefined;
  listMigrations(namespace: string): Promise<VirtualMachineInstanceMigration[]> | VirtualMachineInstanceMigration[];
}

export type MigrationValidationContext = ValidationContext & MigrationLookups;

function validateSpecShape(vmim: Record<string, unknown>): Cause[] {
  const meta = checkSchema(vmim.metadata, OBJECT_META_SCHEMA, 'metadata');
  if (meta.length) return meta;
  if (!isObject(vmim.spec)) return [required('spec', 'spec: Required value')];
  const shape = checkSchema(vmim.spec, migrationSpecSchema(), 'spec');
  if (shape.length) return shape;
  if (!stringAt(vmim.spec.vmiName)) return [required('spec.vmiName', 'vmiName is missing')];
  return [];
}

function checkVMIMigratable(vmi: VirtualMachineInstance): Cause[] {
  if (isVMIFinal(vmi)) return [invalid('spec.vmiName', 'Cannot migrate VMI in finalized state.')];
  if (hasCondition(vmi, 'LiveMigratable', 'False')) {
    const c = findCondition(vmi, 'LiveMigratable');
    return [invalid('spec.vmiName', `Cannot migrate VMI, Reason: ${c?.reason ?? ''}, Message: ${c?.message ?? ''}`)];
  }
  if (vmi.status?.phase !== 'Running') return [invalid('spec.vmiName', 'Cannot migrate VMI which is not running.')];
  return [];
}

export async function validateMigrationCreate(vmim: unknown, ctx: MigrationValidationContext): Promise<Cause[]> {
  if (!isObject(vmim)) return [invalid('', 'object in body must be of type object')];
  const shape = validateSpecShape(vmim);
  if (shape.length) return shape;
  const spec = objectAt(vmim.spec);
  const ns = stringAt(objectAt(vmim.metadata).namespace) ?? 'default';
  const vmiName = spec.vmiName as string;
  if (spec.priority !== undefined && !isKubeVirtServiceAccount(ctx.config, ctx.user?.username)) {
    return [forbidden('spec.priority', 'Migration priority queue, only virt-controller is allowed to set priority field')];
  }
  const vmi = await ctx.getVMI(ns, vmiName);
  if (!vmi) return [invalid('spec.vmiName', `the VMI "${ns}/${vmiName}" does not exist`)];
  const notMigratable = checkVMIMigratable(vmi);
  if (notMigratable.length) return notMigratable;
  const active = (await ctx.listMigrations(ns)).find((m) => m.spec?.vmiName === vmiName && !isMigrationFinal(m));
  if (active) {
    return [invalid('spec.vmiName', `in-flight migration detected. Active migration job (${active.metadata.uid ?? ''}) is currently already in progress for VMI ${vmiName}.`)];
  }
  return [];
}

export function validateMigrationUpdate(vmim: unknown, oldVMIM: unknown, _ctx: ValidationContext): Cause[] {
  if (!isObject(vmim) || !isObject(oldVMIM)) return [invalid('', 'object in body must be of type object')];
  if (JSON.stringify(canonical(vmim.spec)) !== JSON.stringify(canonical(oldVMIM.spec))) {
    return [notSupported('spec', "update of Migration object's spec is restricted")];
  }
  const label = (o: Record<string, unknown>) => objectAt(objectAt(o.metadata).labels)[Label.VMIName];
  const inFlight = !isMigrationFinal(oldVMIM as unknown as VirtualMachineInstanceMigration);
  if (inFlight && label(oldVMIM) !== undefined && label(vmim) !== label(oldVMIM)) {
    return [notSupported('metadata.labels', 'selector label can\'t be modified on an in-flight migration')];
  }
  return [];
}
