import { describe, expect, it } from 'vitest';
import type { MigrationPolicy } from '../../../lib/kubevirt';
import { newVMI } from '../vmi/testing-builders';
import { DEFAULT_MIGRATION_SETTINGS } from './constants';
import { resolveMigrationConfiguration, selectMigrationPolicy } from './migration-policy';

const policy = (name: string, selectors?: MigrationPolicy['spec']['selectors'], extra: Partial<MigrationPolicy['spec']> = {}): MigrationPolicy =>
  ({ apiVersion: 'migrations.kubevirt.io/v1alpha1', kind: 'MigrationPolicy', metadata: { name }, spec: { selectors, ...extra } });
const vmi = newVMI((v) => { v.metadata.labels = { app: 'db', tier: 'gold' }; });
const nsLabels = { team: 'a' };

describe('selectMigrationPolicy', () => {
  it.each([
    ['no policies', [], undefined],
    ['a policy without selectors never matches', [policy('empty')], undefined],
    ['VMI labels match', [policy('p', { virtualMachineInstanceSelector: { app: 'db' } })], 'p'],
    ['one VMI label differs', [policy('p', { virtualMachineInstanceSelector: { app: 'db', tier: 'silver' } })], undefined],
    ['namespace labels match', [policy('p', { namespaceSelector: { team: 'a' } })], 'p'],
    ['namespace label missing', [policy('p', { namespaceSelector: { team: 'b' } })], undefined],
    ['more matched labels win', [policy('one', { virtualMachineInstanceSelector: { app: 'db' } }), policy('two', { virtualMachineInstanceSelector: { app: 'db', tier: 'gold' } })], 'two'],
    ['on a tie, more VMI labels win', [policy('ns', { namespaceSelector: { team: 'a' } }), policy('vmi', { virtualMachineInstanceSelector: { app: 'db' } })], 'vmi'],
    ['still tied, the smallest name wins', [policy('b', { virtualMachineInstanceSelector: { app: 'db' } }), policy('a', { virtualMachineInstanceSelector: { tier: 'gold' } })], 'a'],
  ])('%s', (_n, policies, want) => {
    expect(selectMigrationPolicy(policies as MigrationPolicy[], vmi, nsLabels)?.metadata.name).toBe(want);
  });
});

describe('resolveMigrationConfiguration', () => {
  it('uses the cluster defaults without a policy (150 s/GiB, 150 s progress, unlimited bandwidth, 50 ms downtime)', () => {
    expect(resolveMigrationConfiguration(DEFAULT_MIGRATION_SETTINGS)).toEqual({
      bandwidthPerMigration: '0Mi', completionTimeoutPerGiB: 150, progressTimeout: 150, allowAutoConverge: false, allowPostCopy: false,
      allowWorkloadDisruption: false, parallelMigrationsPerCluster: 5, parallelOutboundMigrationsPerNode: 2, maxDowntimeMs: 50,
    });
  });

  it('overlays the policy fields', () => {
    const p = policy('slow', { virtualMachineInstanceSelector: { app: 'db' } }, { bandwidthPerMigration: '1Mi', allowAutoConverge: true, completionTimeoutPerGiB: 20, maxDowntimeMs: 100 });
    expect(resolveMigrationConfiguration(DEFAULT_MIGRATION_SETTINGS, p)).toMatchObject({
      bandwidthPerMigration: '1Mi', allowAutoConverge: true, completionTimeoutPerGiB: 20, maxDowntimeMs: 100, allowPostCopy: false,
    });
  });
});
