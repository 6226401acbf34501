import { describe, expect, it } from 'vitest';
import { enabledFeatureGates, kubeVirtConfigurationCauses } from './kubevirt-cr';

describe('KubeVirt CR configuration', () => {
  it('a gate is enabled when listed and not disabled', () => {
    expect(enabledFeatureGates({ developerConfiguration: { featureGates: ['HostDisk', 'Snapshot'], disabledFeatureGates: ['Snapshot'] } })).toEqual(['HostDisk']);
    expect(enabledFeatureGates(undefined)).toEqual([]);
  });

  it('accepts the defaults and a sensible change', () => {
    expect(kubeVirtConfigurationCauses({})).toEqual([]);
    expect(kubeVirtConfigurationCauses({ migrations: { parallelMigrationsPerCluster: 10, bandwidthPerMigration: '64Mi' }, evictionStrategy: 'LiveMigrate', network: { defaultNetworkInterface: 'bridge' } })).toEqual([]);
  });

  it('refuses what would stop migrations or cannot be read, naming the field', () => {
    expect(kubeVirtConfigurationCauses({ developerConfiguration: { featureGates: ['HostDisk'], disabledFeatureGates: ['HostDisk'] } })).toEqual([
      { field: 'spec.configuration.developerConfiguration', message: 'feature gate "HostDisk" exists on both "FeatureGates" and "DisabledFeatureGates"' },
    ]);
    expect(kubeVirtConfigurationCauses({ migrations: { parallelMigrationsPerCluster: 0, progressTimeout: 1.5, bandwidthPerMigration: 'fast' } }).map((c) => c.field)).toEqual([
      'spec.configuration.migrations.parallelMigrationsPerCluster', 'spec.configuration.migrations.progressTimeout', 'spec.configuration.migrations.bandwidthPerMigration',
    ]);
    expect(kubeVirtConfigurationCauses({ evictionStrategy: 'Sometimes' as never })[0].message).toBe('Unsupported value: "Sometimes": supported values: "None", "LiveMigrate", "LiveMigrateIfPossible", "External"');
  });
});
