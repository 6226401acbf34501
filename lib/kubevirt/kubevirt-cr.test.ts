import { describe, expect, it } from 'vitest';
import { enabledFeatureGates, kubeVirtConfigurationCauses, overheadRatioOf } from './kubevirt-cr';

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

  it('additionalGuestMemoryOverheadRatio: a float ≥ 1 as a string, refused with KubeVirt\'s messages otherwise', () => {
    const field = 'spec.configuration.additionalGuestMemoryOverheadRatio';
    expect(kubeVirtConfigurationCauses({ additionalGuestMemoryOverheadRatio: '1.5' })).toEqual([]);
    expect(kubeVirtConfigurationCauses({ additionalGuestMemoryOverheadRatio: '1' })).toEqual([]);
    expect(kubeVirtConfigurationCauses({ additionalGuestMemoryOverheadRatio: '0.9' })).toEqual([{ field, message: 'ratio provided, 0.9, cannot be smaller than 1.0' }]);
    expect(kubeVirtConfigurationCauses({ additionalGuestMemoryOverheadRatio: 'abc' })).toEqual([{ field, message: 'ratio provided, abc, cannot be parsed into float: strconv.ParseFloat: parsing "abc": invalid syntax' }]);
    expect(kubeVirtConfigurationCauses({ additionalGuestMemoryOverheadRatio: '' })[0].field).toBe(field);
  });

  it('overheadRatioOf: the ratio the controller applies (none when unset or not one admission takes)', () => {
    expect(overheadRatioOf({ additionalGuestMemoryOverheadRatio: '2.25' })).toBe(2.25);
    expect(overheadRatioOf({ additionalGuestMemoryOverheadRatio: '1e0' })).toBe(1);
    expect(overheadRatioOf({ additionalGuestMemoryOverheadRatio: '0.5' })).toBeUndefined();
    expect(overheadRatioOf({ additionalGuestMemoryOverheadRatio: '1.5x' })).toBeUndefined();
    expect(overheadRatioOf({})).toBeUndefined();
    expect(overheadRatioOf(undefined)).toBeUndefined();
  });
});
