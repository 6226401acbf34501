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

  it('maps additionalGuestMemoryOverheadRatio: read as text, sent as KubeVirt\'s string, cleared to null', () => {
    const withRatio: KubeVirt = { ...cr, spec: { configuration: { ...cr.spec!.configuration, additionalGuestMemoryOverheadRatio: '1.5' } } };
    const f = settingsFormOf(withRatio);
    expect(f.additionalGuestMemoryOverheadRatio).toBe('1.5');
    expect(settingsFormOf(cr).additionalGuestMemoryOverheadRatio).toBe('');
    expect(settingsPatch(withRatio, f)).toBeUndefined();
    expect(settingsPatch(withRatio, { ...f, additionalGuestMemoryOverheadRatio: ' 2 ' })).toEqual({ spec: { configuration: { additionalGuestMemoryOverheadRatio: '2' } } });
    expect(settingsPatch(withRatio, { ...f, additionalGuestMemoryOverheadRatio: '' })).toEqual({ spec: { configuration: { additionalGuestMemoryOverheadRatio: null } } });
    expect(settingsPatch(cr, { ...settingsFormOf(cr), additionalGuestMemoryOverheadRatio: '1.25' })).toEqual({ spec: { configuration: { additionalGuestMemoryOverheadRatio: '1.25' } } });
  });

  it.each([
    ['0.5', 'ratio provided, 0.5, cannot be smaller than 1.0'],
    ['abc', 'ratio provided, abc, cannot be parsed into float: strconv.ParseFloat: parsing "abc": invalid syntax'],
    ['1', undefined], ['1.0', undefined], ['2.75', undefined], ['', undefined],
  ])('the overhead ratio %j: admission\'s answer %j', (ratio, message) => {
    const errors = settingsErrors({ ...settingsFormOf(cr), additionalGuestMemoryOverheadRatio: ratio });
    expect(errors.additionalGuestMemoryOverheadRatio).toBe(message);
  });
});
