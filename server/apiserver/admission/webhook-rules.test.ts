import { describe, expect, it } from 'vitest';
import { ruleMatches, webhookApplies, type AdmissionAttributes } from './webhook-rules';

const vmCreate: AdmissionAttributes = {
  operation: 'CREATE',
  rt: { group: 'kubevirt.io', version: 'v1', resource: 'virtualmachines', kind: 'VirtualMachine' },
  namespace: 'default',
  object: { metadata: { name: 'vm1', labels: { app: 'web' } } },
};
const rule = (r: object) => ({ operations: ['CREATE'], apiGroups: ['kubevirt.io'], apiVersions: ['v1'], resources: ['virtualmachines'], ...r });

describe('ruleMatches', () => {
  it.each([
    ['exact', rule({}), vmCreate, true],
    ['other operation', rule({ operations: ['UPDATE'] }), vmCreate, false],
    ['operation *', rule({ operations: ['*'] }), vmCreate, true],
    ['group *', rule({ apiGroups: ['*'] }), vmCreate, true],
    ['other group', rule({ apiGroups: [''] }), vmCreate, false],
    ['other version', rule({ apiVersions: ['v1alpha3'] }), vmCreate, false],
    ['resources *', rule({ resources: ['*'] }), vmCreate, true],
    ['main resource rule does not match a subresource', rule({}), { ...vmCreate, subResource: 'status' }, false],
    ['res/status matches the status subresource', rule({ resources: ['virtualmachines/status'] }), { ...vmCreate, subResource: 'status' }, true],
    ['res/* matches subresources', rule({ resources: ['virtualmachines/*'] }), { ...vmCreate, subResource: 'status' }, true],
    ['res/* also matches the main resource (kube splits it to sub "*")', rule({ resources: ['virtualmachines/*'] }), vmCreate, true],
    ['*/* matches everything', rule({ resources: ['*/*'] }), { ...vmCreate, subResource: 'status' }, true],
    ['scope Cluster skips namespaced', rule({ scope: 'Cluster' }), vmCreate, false],
    ['scope Namespaced', rule({ scope: 'Namespaced' }), vmCreate, true],
  ])('%s', (_n, r, attrs, expected) => {
    expect(ruleMatches(r, attrs)).toBe(expected);
  });
});

describe('webhookApplies selectors', () => {
  const webhook = (extra: object) => ({ name: 'w', rules: [rule({})], ...extra });
  it.each([
    ['no selectors', {}, {}, true],
    ['objectSelector match', { objectSelector: { matchLabels: { app: 'web' } } }, {}, true],
    ['objectSelector miss', { objectSelector: { matchLabels: { app: 'db' } } }, {}, false],
    ['namespaceSelector match', { namespaceSelector: { matchLabels: { team: 'a' } } }, { namespaceLabels: { team: 'a' } }, true],
    ['namespaceSelector miss', { namespaceSelector: { matchExpressions: [{ key: 'kubevirt.io', operator: 'DoesNotExist' }] } }, { namespaceLabels: { 'kubevirt.io': '' } }, false],
    ['empty selectors match', { namespaceSelector: {}, objectSelector: {} }, {}, true],
  ])('%s', (_n, extra, attrs, expected) => {
    expect(webhookApplies(webhook(extra), { ...vmCreate, ...attrs })).toBe(expected);
  });

  it('matches objectSelector against the old object too (e.g. a label being removed)', () => {
    const w = { name: 'w', rules: [rule({ operations: ['UPDATE'] })], objectSelector: { matchLabels: { app: 'web' } } };
    const update = { ...vmCreate, operation: 'UPDATE' as const, object: { metadata: {} } };
    expect(webhookApplies(w, { ...update, oldObject: vmCreate.object })).toBe(true);
    expect(webhookApplies(w, { ...update, oldObject: { metadata: { labels: { app: 'db' } } } })).toBe(false);
  });
});
