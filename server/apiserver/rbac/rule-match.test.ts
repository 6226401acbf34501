import { describe, expect, it } from 'vitest';
import type { PolicyRule, RequestAttributes } from './policy';
import { ruleAllows } from './rule-match';

const get = (resource: string, extra: Partial<RequestAttributes> = {}): RequestAttributes => ({ verb: 'get', group: '', resource, ...extra });

describe('ruleAllows (kube RBAC rule matching)', () => {
  it.each<[string, PolicyRule, RequestAttributes, boolean]>([
    ['exact verb, group and resource', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, get('pods'), true],
    ['another verb', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { ...get('pods'), verb: 'delete' }, false],
    ['another group', { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] }, get('pods'), false],
    ['"*" verbs, groups and resources', { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verb: 'deletecollection', group: 'kubevirt.io', resource: 'virtualmachines' }, true],
    ['"*" resources covers subresources', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, get('pods', { subresource: 'log' }), true],
    ['a resource does not cover its subresources', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, get('pods', { subresource: 'log' }), false],
    ['resource/subresource', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, get('pods', { subresource: 'log' }), true],
    ['resource/subresource does not cover the resource', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, get('pods'), false],
    ['*/subresource', { verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] }, { verb: 'update', group: 'kubevirt.io', resource: 'virtualmachines', subresource: 'status' }, true],
    ['*/subresource, another subresource', { verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] }, { verb: 'update', group: '', resource: 'pods', subresource: 'log' }, false],
    ['a nested subresource needs its full name', { verbs: ['get'], apiGroups: ['s'], resources: ['virtualmachineinstances/vnc'] }, { verb: 'get', group: 's', resource: 'virtualmachineinstances', subresource: 'vnc/screenshot' }, false],
    ['a nested subresource by its full name', { verbs: ['get'], apiGroups: ['s'], resources: ['virtualmachineinstances/vnc/screenshot'] }, { verb: 'get', group: 's', resource: 'virtualmachineinstances', subresource: 'vnc/screenshot' }, true],
    ['resourceNames match the name', { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] }, get('secrets', { name: 'a' }), true],
    ['resourceNames refuse other names', { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] }, get('secrets', { name: 'b' }), false],
    ['resourceNames refuse a list (no name)', { verbs: ['list'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] }, { verb: 'list', group: '', resource: 'secrets' }, false],
    ['a resource rule never allows a path', { verbs: ['get'], apiGroups: ['*'], resources: ['*'] }, { verb: 'get', path: '/healthz' }, false],
    ['exact non-resource URL', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, { verb: 'get', path: '/healthz' }, true],
    ['non-resource prefix with trailing *', { verbs: ['get'], nonResourceURLs: ['/apis/*'] }, { verb: 'get', path: '/apis/kubevirt.io/v1' }, true],
    ['trailing * needs the prefix', { verbs: ['get'], nonResourceURLs: ['/apis/*'] }, { verb: 'get', path: '/api' }, false],
    ['"*" non-resource URL', { verbs: ['*'], nonResourceURLs: ['*'] }, { verb: 'post', path: '/anything' }, true],
    ['a URL rule never allows a resource', { verbs: ['*'], nonResourceURLs: ['*'] }, get('pods'), false],
  ])('%s', (_n, rule, attrs, allowed) => {
    expect(ruleAllows(rule, attrs)).toBe(allowed);
  });
});
