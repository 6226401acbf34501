import { describe, expect, it } from 'vitest';
import { newVM, newVMI, withPhase, withRunStrategy } from '../kubevirt/test-builders';
import { allowedActions } from './vm-actions';
import { accessReviewBody, neededAttributes, resolveNamespacePermissions, type AccessReview } from './namespace-access-review';
import type { Attributes, ResourceRule } from './namespace-permissions';

const SUB = 'subresources.kubevirt.io';
const VIEW: ResourceRule[] = [{ verbs: ['get', 'list', 'watch'], apiGroups: ['kubevirt.io'], resources: ['virtualmachines', 'virtualmachineinstances'] }];
const running = () => [newVM(withRunStrategy('Always')), newVMI(withPhase('Running'))] as const;

/** an access review that grants what `grants` says, and records what it was asked */
function reviewer(grants: (a: Attributes) => boolean) {
  const asked: Attributes[] = [];
  const review: AccessReview = async (_ns, a) => { asked.push(a); return grants(a); };
  return { review, asked };
}
const stopOrMigrate = (a: Attributes) => a.group === SUB && (a.subresource === 'stop' || a.subresource === 'migrate');

describe('an incomplete rules review is completed by access reviews', () => {
  it('a right only another authorizer grants still shows its button', async () => {
    const { review } = reviewer(stopOrMigrate);
    const p = await resolveNamespacePermissions('a', { resourceRules: VIEW, incomplete: true }, review);
    const [vm, vmi] = running();
    expect(allowedActions(vm, vmi, { permissions: p })).toEqual(['stop', 'forceStop', 'migrate']);
    expect([p.createVM, p.vnc, p.deletePVC]).toEqual([false, false, false]);
  });

  it('rights the rules already grant are not asked again; each other one once', async () => {
    const { review, asked } = reviewer(() => false);
    const rules: ResourceRule[] = [...VIEW, { verbs: ['update'], apiGroups: [SUB], resources: ['virtualmachines/stop'] }];
    const p = await resolveNamespacePermissions('a', { resourceRules: rules, incomplete: true }, review);
    expect(p.actions.stop).toBe(true);
    expect(asked.some((a) => a.subresource === 'stop')).toBe(false);
    expect(asked.length).toBe(neededAttributes('a').length - 1);
    expect(new Set(asked.map((a) => JSON.stringify(a))).size).toBe(asked.length);
  });

  it('a complete review is its rules alone: no access review is made', async () => {
    const { review, asked } = reviewer(() => true);
    const p = await resolveNamespacePermissions('a', { resourceRules: VIEW, incomplete: false }, review);
    expect(asked).toEqual([]);
    expect(p.actions.stop).toBe(false);
  });

  it('an access review that fails leaves that right to the API server (shown)', async () => {
    const p = await resolveNamespacePermissions('a', { resourceRules: VIEW, incomplete: true }, () => Promise.reject(new Error('503')));
    expect(p.actions.stop).toBe(true);
  });

  it('the review asks the namespace and the action as RBAC sees it', () => {
    const stop = neededAttributes('a').find((a) => a.subresource === 'stop')!;
    expect(accessReviewBody('a', stop)).toEqual({
      apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { namespace: 'a', verb: 'update', group: SUB, resource: 'virtualmachines', subresource: 'stop', name: undefined } },
    });
  });
});
