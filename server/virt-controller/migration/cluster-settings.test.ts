import { expect, it } from 'vitest';
import { migrationSettingsFrom } from './cluster-settings';

it('takes only what the KubeVirt CR sets (the rest keeps our defaults)', () => {
  expect(migrationSettingsFrom({})).toEqual({});
  expect(migrationSettingsFrom({ migrations: { parallelMigrationsPerCluster: 1, bandwidthPerMigration: 1048576, allowPostCopy: true } })).toEqual({
    parallelMigrationsPerCluster: 1, bandwidthPerMigration: '1048576', allowPostCopy: true,
  });
});
