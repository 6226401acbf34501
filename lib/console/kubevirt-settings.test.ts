import { describe, expect, it } from 'vitest';
import type { KubeVirt } from '../kubevirt/kubevirt-cr';
import { settingsErrors, settingsFormOf, settingsPatch } from './kubevirt-settings';

const cr: KubeVirt = { apiVersion: 'kubevirt.io/v1', kind: 'KubeVirt', metadata: { name: 'kubevirt', namespace: 'kubevirt' }, spec: { configuration: { developerConfiguration: { featureGates: ['HostDisk'] }, migrations: { parallelMigrationsPerCluster: 3 } } } };

describe('the Settings form over the KubeVirt CR', () => {
  it('reads what the CR sets and leaves the rest empty (the default applies)', () => {
    expect(settingsFormOf(cr)).toMatchObject({ featureGates: 'HostDisk', parallelMigrationsPerCluster: '3', parallelOutboundMigrationsPerNode: '', allowPostCopy: false });
  });

  it('patches only what changed; clearing a field removes it (null), back to the default', () => {
    const f = settingsFormOf(cr);
    expect(settingsPatch(cr, f)).toBeUndefined();
    expect(settingsPatch(cr, { ...f, parallelMigrationsPerCluster: '10', featureGates: 'HostDisk, Snapshot' })).toEqual({
      spec: { configuration: { developerConfiguration: { featureGates: ['HostDisk', 'Snapshot'] }, migrations: { parallelMigrationsPerCluster: 10 } } },
    });
    expect(settingsPatch(cr, { ...f, parallelMigrationsPerCluster: '' })).toEqual({ spec: { configuration: { migrations: { parallelMigrationsPerCluster: null } } } });
  });

  it('says what the server would refuse, by field', () => {
    const f = settingsFormOf(cr);
    expect(settingsErrors({ ...f, parallelMigrationsPerCluster: '0', bandwidthPerMigration: 'fast' })).toEqual({
      'migrations.parallelMigrationsPerCluster': 'parallelMigrationsPerCluster must be a positive integer, got 0',
      'migrations.bandwidthPerMigration': 'bandwidthPerMigration must be a non-negative quantity such as 64Mi, got "fast"',
    });
    expect(settingsErrors(f)).toEqual({});
    expect(settingsErrors({ ...f, progressTimeout: '1.5' })).toEqual({ 'migrations.progressTimeout': 'progressTimeout must be a positive integer, got "1.5"' });
  });
});
