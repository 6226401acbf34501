import { describe, expect, it } from 'vitest';
import { validateMigrationCreate, validateMigrationUpdate } from './migration-validator';
import { validateMigrationPolicy } from './migration-policy-validator';
import { config } from '../test-fixtures';
import type { VirtualMachineInstance } from '../../../../lib/kubevirt/vmi-types';
import type { VirtualMachineInstanceMigration } from '../../../../lib/kubevirt/migration-types';

const vmim = (spec: Record<string, unknown> = { vmiName: 'vm1' }) =>
  ({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstanceMigration', metadata: { name: 'm1', namespace: 'ns' }, spec });
const vmi = (status: VirtualMachineInstance['status']): VirtualMachineInstance =>
  ({ metadata: { name: 'vm1', namespace: 'ns', uid: 'u' }, spec: { domain: { devices: {} } }, status });
const running = vmi({ phase: 'Running' });
const other = (phase?: string): VirtualMachineInstanceMigration =>
  ({ metadata: { name: 'old', uid: 'old-uid' }, spec: { vmiName: 'vm1' }, status: { phase: phase as never } });

function ctx(v: VirtualMachineInstance | undefined, migrations: VirtualMachineInstanceMigration[] = []) {
  return { config, getVMI: async () => v, listMigrations: async () => migrations };
}

describe('validateMigrationCreate', () => {
  it('accepts a running, migratable VMI with no other migration', async () => {
    expect(await validateMigrationCreate(vmim(), ctx(running, [other('Succeeded')]))).toEqual([]);
  });

  it.each<[string, unknown, ReturnType<typeof ctx>, string]>([
    ['vmiName missing', vmim({}), ctx(running), 'vmiName is missing'],
    ['VMI does not exist', vmim(), ctx(undefined), 'the VMI "ns/vm1" does not exist'],
    ['VMI final', vmim(), ctx(vmi({ phase: 'Succeeded' })), 'Cannot migrate VMI in finalized state.'],
    ['VMI not migratable', vmim(), ctx(vmi({ phase: 'Running', conditions: [{ type: 'LiveMigratable', status: 'False', reason: 'DisksNotLiveMigratable', message: 'PVC x is not shared' }] })),
      'Cannot migrate VMI, Reason: DisksNotLiveMigratable, Message: PVC x is not shared'],
    ['VMI not running', vmim(), ctx(vmi({ phase: 'Scheduling' })), 'Cannot migrate VMI which is not running.'],
    ['migration in flight', vmim(), ctx(running, [other('Running')]),
      'in-flight migration detected. Active migration job (old-uid) is currently already in progress for VMI vm1.'],
    ['priority set by a user', vmim({ vmiName: 'vm1', priority: 'system-critical' }), ctx(running),
      'Migration priority queue, only virt-controller is allowed to set priority field'],
  ])('%s', async (_n, obj, c, message) => {
    expect((await validateMigrationCreate(obj, c)).map((x) => x.message)).toEqual([message]);
  });
});

describe('validateMigrationUpdate', () => {
  it('rejects a spec change', () => {
    expect(validateMigrationUpdate(vmim({ vmiName: 'vm2' }), vmim(), { config }).map((c) => c.message))
      .toEqual(["update of Migration object's spec is restricted"]);
  });
  it('allows a metadata-only change', () => {
    expect(validateMigrationUpdate(vmim(), vmim(), { config })).toEqual([]);
  });
});

describe('validateMigrationPolicy', () => {
  it.each<[string, unknown, number]>([
    ['valid', { spec: { selectors: { namespaceSelector: { a: 'b' } }, bandwidthPerMigration: '64Mi', allowPostCopy: true } }, 0],
    ['bad quantity', { spec: { bandwidthPerMigration: 'fast' } }, 1],
    ['wrong type', { spec: { allowPostCopy: 'yes' } }, 1],
    ['negative timeout', { spec: { completionTimeoutPerGiB: -1 } }, 1],
  ])('%s → %i causes', (_n, obj, n) => {
    expect(validateMigrationPolicy(obj)).toHaveLength(n);
  });
});
