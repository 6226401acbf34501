import { describe, expect, it } from 'vitest';
import { compactRules, compactString, uncovered } from './covers';
import type { PolicyRule } from './policy';

const r = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]): PolicyRule => ({ verbs, apiGroups, resources, ...(resourceNames ? { resourceNames } : {}) });

describe('uncovered (kube escalation check)', () => {
  it.each<[string, PolicyRule[], PolicyRule[], number]>([
    ['the same rule', [r(['get', 'list'], [''], ['pods'])], [r(['get'], [''], ['pods'])], 0],
    ['a wider owner', [r(['*'], ['*'], ['*'])], [r(['delete'], ['kubevirt.io'], ['virtualmachines', 'virtualmachineinstances'])], 0],
    ['a missing verb', [r(['get'], [''], ['pods'])], [r(['get', 'delete'], [''], ['pods'])], 1],
    ['parts split across owned rules', [r(['get'], [''], ['pods']), r(['list'], [''], ['pods'])], [r(['get', 'list'], [''], ['pods'])], 0],
    ['named owner does not cover unnamed', [r(['get'], [''], ['secrets'], ['a'])], [r(['get'], [''], ['secrets'])], 1],
    ['unnamed owner covers named', [r(['get'], [''], ['secrets'])], [r(['get'], [''], ['secrets'], ['a', 'b'])], 0],
    ['*/subresource covers a subresource', [r(['update'], ['*'], ['*/status'])], [r(['update'], ['kubevirt.io'], ['virtualmachines/status'])], 0],
    ['non-resource prefix', [{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/apis/x', '/api'] }], 1],
  ])('%s', (_n, owned, wanted, missing) => {
    expect(uncovered(owned, wanted)).toHaveLength(missing);
  });

  it('prints what is missing as kube does, verbs merged per resource', () => {
    const missing = uncovered([r(['get'], [''], ['pods'])], [r(['get', 'delete', 'patch'], [''], ['pods']), r(['get'], ['apps'], ['deployments'], ['web'])]);
    expect(compactRules(missing).map(compactString).sort()).toEqual([
      '{APIGroups:[""], Resources:["pods"], Verbs:["delete" "patch"]}',
      '{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["web"], Verbs:["get"]}',
    ]);
    expect(compactString({ verbs: ['get'], nonResourceURLs: ['/metrics'] })).toBe('{NonResourceURLs:["/metrics"], Verbs:["get"]}');
  });
});
