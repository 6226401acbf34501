import { describe, expect, it } from 'vitest';
import { commonInstancetypes, commonPreferences, type Instancetype } from '../kubevirt';
import { buildCatalogue, preferenceLabel, sizeInWords } from './instancetype-catalogue';

const it1 = (name: string, cpus: number, memory: string): Instancetype => ({ apiVersion: 'instancetype.kubevirt.io/v1beta1', kind: 'VirtualMachineClusterInstancetype', metadata: { name }, spec: { cpu: { guest: cpus }, memory: { guest: memory } } });

describe('instance type catalogue', () => {
  it('groups the common types by series in the console order, sizes smallest first', () => {
    const cat = buildCatalogue([...commonInstancetypes()].reverse());
    expect(cat.map((s) => [s.series, s.title])).toEqual([['u1', 'General purpose'], ['o1', 'Overcommitted'], ['m1', 'Memory intensive']]);
    expect(cat[0].sizes.map((s) => s.size)).toEqual(['nano', 'micro', 'small', 'medium', '2xmedium', 'large', 'xlarge', '2xlarge']);
    expect(cat[0].sizes.find((s) => s.name === 'u1.small')?.words).toBe('1 CPU, 2 GiB memory');
    expect(cat[0].description).toMatch(/universal/);
  });

  it('puts cx1 after o1 and unknown series last; skips a type without CPU or memory', () => {
    const broken = { ...it1('zz.x', 1, '1Gi'), spec: { cpu: { guest: 1 } } } as unknown as Instancetype;
    const cat = buildCatalogue([it1('zz.big', 2, '2Gi'), it1('cx1.large', 2, '4Gi'), it1('u1.small', 1, '2Gi'), broken]);
    expect(cat.map((s) => s.series)).toEqual(['u1', 'cx1', 'zz']);
    expect(cat[2].sizes.map((s) => s.name)).toEqual(['zz.big']);
    expect(cat[2].title).toBe('zz');
  });

  it("lists the namespace's own types in their series beside the cluster ones, marked and chosen by kind", () => {
    const own = { ...it1('u1.small', 1, '2Gi'), kind: 'VirtualMachineInstancetype', metadata: { name: 'u1.small', namespace: 'team' } };
    const cat = buildCatalogue([it1('u1.small', 1, '2Gi'), it1('u1.large', 2, '8Gi')], [own, { ...it1('team.big', 8, '3Gi'), kind: 'VirtualMachineInstancetype' }]);
    expect(cat.map((s) => s.series)).toEqual(['u1', 'team']);
    expect(cat[0].sizes.map((s) => [s.name, s.namespaced, s.choice])).toEqual([
      ['u1.small', false, 'u1.small'], ['u1.small', true, 'VirtualMachineInstancetype/u1.small'], ['u1.large', false, 'u1.large'],
    ]);
    expect(cat[1].sizes[0]).toMatchObject({ namespaced: true, choice: 'VirtualMachineInstancetype/team.big', words: '8 CPUs, 3 GiB memory' });
  });

  it.each([
    [1, '512Mi', '1 CPU, 512 MiB memory'],
    [2, '8Gi', '2 CPUs, 8 GiB memory'],
    [4, '1536Mi', '4 CPUs, 1.5 GiB memory'],
  ])('%i × %s in words', (cpus, memory, words) => expect(sizeInWords(cpus, memory)).toBe(words));

  it('labels a preference with its display name', () => {
    expect(preferenceLabel(commonPreferences()[0])).toBe('kubevirt-ts demo guest (busybox) (demo)');
    expect(preferenceLabel({ ...commonPreferences()[0], metadata: { name: 'fedora' } })).toBe('fedora');
  });
});
