import { describe, expect, it } from 'vitest';
import { validateStorageClass, validateStorageClassUpdate } from './storageclass-validation';

const sc = (o: Record<string, unknown> = {}) => ({ metadata: { name: 's' }, provisioner: 'example.io/disk', reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate', ...o });
const messages = (causes: { field?: string; message: string }[]) => causes.map((c) => `${c.field}: ${c.message}`);

describe('validateStorageClass', () => {
  it('accepts a well-formed class', () => expect(validateStorageClass(sc())).toEqual([]));

  it.each([
    ['no provisioner', { provisioner: '' }, 'provisioner: Required value'],
    ['a provisioner that is not a qualified name', { provisioner: 'a b' }, 'provisioner: Invalid value: "a b": name part must consist of'],
    ['Recycle', { reclaimPolicy: 'Recycle' }, 'reclaimPolicy: Unsupported value: "Recycle": supported values: "Delete", "Retain"'],
    ['an unknown binding mode', { volumeBindingMode: 'Later' }, 'volumeBindingMode: Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"'],
  ])('refuses %s', (_n, o, expected) => {
    expect(messages(validateStorageClass(sc(o))).join('\n')).toContain(expected);
  });

  it('keeps parameters, provisioner, reclaim policy and binding mode on update, but not expansion', () => {
    const old = sc({ parameters: { type: 'ssd' } });
    expect(messages(validateStorageClassUpdate(sc({ parameters: { type: 'hdd' }, provisioner: 'other.io/x', reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' }), old))).toEqual([
      'parameters: Forbidden: updates to parameters are forbidden.',
      'provisioner: Forbidden: updates to provisioner are forbidden.',
      'reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.',
      'volumeBindingMode: Invalid value: "WaitForFirstConsumer": field is immutable',
    ]);
    expect(validateStorageClassUpdate(sc({ parameters: { type: 'ssd' }, allowVolumeExpansion: true }), old)).toEqual([]);
  });
});
