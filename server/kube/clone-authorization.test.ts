import { describe, expect, it } from 'vitest';
import type { V1ResourceAttributes } from '@kubernetes/client-node';
import { authorizeClone, cloneSourceOf, serviceAccountRequester, vmServiceAccountName, type CloneRequester, type CloneSource } from './clone-authorization';

/** a reviewer that allows exactly the listed `subject ns verb group/resource[/sub]` grants; subject is a user or one of its groups */
function reviewer(grants: string[], asked: string[] = []) {
  return async (who: CloneRequester, a: V1ResourceAttributes) => {
    const what = `${a.namespace} ${a.verb} ${a.group ?? ''}/${a.resource}${a.subresource ? `/${a.subresource}` : ''}`;
    asked.push(what);
    return [who.user, ...(who.groups ?? [])].some((s) => grants.includes(`${s} ${what}`));
  };
}

const sa = serviceAccountRequester('target', 'default');
const pvc: CloneSource = { kind: 'pvc', namespace: 'golden', name: 'disk' };
const snap: CloneSource = { kind: 'snapshot', namespace: 'golden', name: 'snap' };
const EXPLICIT = 'golden create cdi.kubevirt.io/datavolumes/source';
const PODS = 'golden create /pods';
const PVCS = 'golden create /pvcs';

describe('authorizeClone (CDI clone permission rules)', () => {
  it.each([
    ['no grant', pvc, [], false],
    ['explicit datavolumes/source to the SA', pvc, [`system:serviceaccount:target:default ${EXPLICIT}`], true],
    ['implicit create pods to the SA', pvc, [`system:serviceaccount:target:default ${PODS}`], true],
    ['explicit to all SAs of the namespace', pvc, [`system:serviceaccounts:target ${EXPLICIT}`], true],
    ['explicit to all SAs', pvc, [`system:serviceaccounts ${EXPLICIT}`], true],
    ['explicit to another namespace\'s SAs', pvc, [`system:serviceaccounts:other ${EXPLICIT}`], false],
    ['explicit granted in another namespace', pvc, ['system:serviceaccounts other create cdi.kubevirt.io/datavolumes/source'], false],
    ['get pods only', pvc, ['system:serviceaccounts golden get /pods'], false],
    ['snapshot, explicit', snap, [`system:serviceaccounts ${EXPLICIT}`], true],
    ['snapshot, pods alone', snap, [`system:serviceaccounts ${PODS}`], false],
    ['snapshot, pods and pvcs', snap, [`system:serviceaccounts ${PODS}`, `system:serviceaccounts ${PVCS}`], true],
  ] as const)('%s → allowed=%s', async (_name, source, grants, allowed) => {
    const got = await authorizeClone(reviewer([...grants]), sa, source, 'target');
    expect(got.allowed).toBe(allowed);
    if (!got.allowed) expect(got.reason).toBe('User system:serviceaccount:target:default has insufficient permissions in clone source namespace golden');
  });

  it('allows a same-namespace clone without asking', async () => {
    const asked: string[] = [];
    expect(await authorizeClone(reviewer([], asked), sa, { ...pvc, namespace: 'target' }, 'target')).toEqual({ allowed: true });
    expect(asked).toEqual([]);
  });

  it('stops at the explicit grant and names the source claim', async () => {
    const names: (string | undefined)[] = [];
    await authorizeClone(async (_w, a) => { names.push(a.name); return true; }, sa, pvc, 'target');
    expect(names).toEqual(['disk']);
  });

  it('reviews a user as the user', async () => {
    const got = await authorizeClone(reviewer([`alice ${PODS}`]), { user: 'alice', groups: ['system:authenticated'] }, pvc, 'target');
    expect(got).toEqual({ allowed: true });
    const bob = await authorizeClone(reviewer([`alice ${PODS}`]), { user: 'bob' }, pvc, 'target');
    expect(bob).toEqual({ allowed: false, reason: 'User bob has insufficient permissions in clone source namespace golden' });
  });
});

describe('cloneSourceOf', () => {
  it.each([
    [{ pvc: { name: 'a' } }, { kind: 'pvc', namespace: 't', name: 'a' }],
    [{ pvc: { namespace: 'g', name: 'a' } }, { kind: 'pvc', namespace: 'g', name: 'a' }],
    [{ snapshot: { namespace: 'g', name: 's' } }, { kind: 'snapshot', namespace: 'g', name: 's' }],
    [{ http: { url: 'x' } }, undefined],
    [undefined, undefined],
  ])('%j → %j', (source, want) => expect(cloneSourceOf(source as never, 't')).toEqual(want));
});

describe('vmServiceAccountName', () => {
  it('is the serviceAccount volume\'s, else default', () => {
    expect(vmServiceAccountName({ spec: { template: { spec: { volumes: [{}, { serviceAccount: { serviceAccountName: 'cloner' } }] } } } })).toBe('cloner');
    expect(vmServiceAccountName({ spec: { template: { spec: { volumes: [] } } } })).toBe('default');
    expect(vmServiceAccountName({})).toBe('default');
  });
});
