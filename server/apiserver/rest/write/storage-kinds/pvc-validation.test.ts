import { describe, expect, it } from 'vitest';
import { validatePvc, validatePvcUpdate } from './pvc-validation';

const claim = (spec: Record<string, unknown>, status?: Record<string, unknown>) => ({
  metadata: { name: 'c' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem', ...spec },
  ...(status ? { status } : {}),
});
const messages = (causes: { field?: string; message: string }[]) => causes.map((c) => `${c.field}: ${c.message}`);

describe('validatePvc', () => {
  it('accepts a well-formed claim', () => {
    expect(validatePvc(claim({}))).toEqual([]);
  });

  it.each([
    ['no access modes', { accessModes: [] }, 'spec.accessModes: Required value: at least 1 access mode is required'],
    ['an unknown access mode', { accessModes: ['ReadWriteSometimes'] }, 'spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"'],
    ['ReadWriteOncePod with another mode', { accessModes: ['ReadWriteOncePod', 'ReadOnlyMany'] }, 'spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes'],
    ['no storage request', { resources: { requests: { cpu: '1' } } }, 'spec.resources[storage]: Required value'],
    ['a zero request', { resources: { requests: { storage: '0Gi' } } }, 'spec.resources[storage]: Invalid value: "0": must be greater than zero'],
    ['a negative request', { resources: { requests: { storage: '-1Gi' } } }, 'spec.resources[storage]: Invalid value: "-1Gi": must be greater than zero'],
    ['a bad volume mode', { volumeMode: 'Raw' }, 'spec.volumeMode: Unsupported value: "Raw": supported values: "Block", "Filesystem"'],
    ['a bad class name', { storageClassName: 'Fast_Disks' }, 'spec.storageClassName: Invalid value: "Fast_Disks": a lowercase RFC 1123 subdomain'],
  ])('refuses %s', (_n, spec, expected) => {
    expect(messages(validatePvc(claim(spec))).join('\n')).toContain(expected);
  });
});

describe('validatePvcUpdate', () => {
  const bound = { phase: 'Bound', capacity: { storage: '1Gi' } };

  it.each([
    ['the binder setting volumeName once', claim({}), claim({ volumeName: 'pv1' })],
    ['a class given to a claim that had none', claim({}), claim({ storageClassName: 'fast' })],
    ['a bound claim growing', claim({}, bound), claim({ resources: { requests: { storage: '2Gi' } } }, bound)],
    ['a bound claim shrinking back towards its capacity', claim({ resources: { requests: { storage: '4Gi' } } }, bound), claim({ resources: { requests: { storage: '2Gi' } } }, bound)],
  ])('allows %s', (_n, old, next) => {
    expect(validatePvcUpdate(next, old)).toEqual([]);
  });

  it('keeps an unbound claim\'s spec', () => {
    const causes = validatePvcUpdate(claim({ resources: { requests: { storage: '2Gi' } } }), claim({}));
    expect(causes).toHaveLength(1);
    expect(causes[0]).toMatchObject({ reason: 'FieldValueForbidden', field: 'spec' });
    expect(causes[0].message).toMatch(/^Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims\n/);
  });

  it('keeps a bound claim\'s access modes and volumeName', () => {
    expect(messages(validatePvcUpdate(claim({ accessModes: ['ReadWriteMany'], volumeName: 'a' }, bound), claim({ volumeName: 'b' }, bound)))[0]).toMatch(/^spec: Forbidden: spec is immutable/);
  });

  it('refuses a request at or below status.capacity that is smaller than before', () => {
    expect(messages(validatePvcUpdate(claim({ resources: { requests: { storage: '512Mi' } } }, bound), claim({}, bound))))
      .toEqual(['spec.resources.requests.storage: Forbidden: field can not be less than status.capacity']);
  });

  it('refuses a volume mode change', () => {
    expect(messages(validatePvcUpdate(claim({ volumeMode: 'Block' }), claim({})))).toContain('volumeMode: Invalid value: "Block": field is immutable');
  });
});

describe('a claim\'s data source', () => {
  it.each([
    ['a claim to clone', { dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } }, []],
    ['a snapshot', { dataSourceRef: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 's' } }, []],
    ['a core kind other than a claim', { dataSource: { kind: 'Pod', name: 'x' } }, ['spec.dataSource: Invalid value: "Pod": must be \'PersistentVolumeClaim\' when referencing the default apiGroup']],
    ['no name', { dataSourceRef: { kind: 'PersistentVolumeClaim' } }, ['spec.dataSourceRef.name: Required value']],
    ['two that differ', { dataSource: { kind: 'PersistentVolumeClaim', name: 'a' }, dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'b' } }, ['spec: Invalid value: "spec.dataSource": must match dataSourceRef']],
  ])('%s', (_n, spec, expected) => {
    expect(messages(validatePvc(claim(spec)))).toEqual(expected);
  });
});
