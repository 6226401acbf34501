import { describe, expect, it } from 'vitest';
import { authorize, GROUP_AUTHENTICATED, GROUP_MASTERS, GROUP_VIEWERS, type ResourceAttributes } from './authz';

const admin = { username: 'admin', groups: [GROUP_MASTERS, GROUP_AUTHENTICATED] };
const viewer = { username: 'viewer', groups: [GROUP_VIEWERS, GROUP_AUTHENTICATED] };
const nobody = { username: 'someone', groups: [GROUP_AUTHENTICATED] };
const sub = 'subresources.kubevirt.io';

describe('authorize', () => {
  it.each<[string, typeof admin, ResourceAttributes, boolean]>([
    ['admin does anything', admin, { verb: 'delete', resource: 'pods', namespace: 'default' }, true],
    ['viewer lists VMs', viewer, { verb: 'list', group: 'kubevirt.io', resource: 'virtualmachines' }, true],
    ['viewer cannot create VMs', viewer, { verb: 'create', group: 'kubevirt.io', resource: 'virtualmachines' }, false],
    ['viewer cannot start a VM', viewer, { verb: 'update', group: sub, resource: 'virtualmachines', subresource: 'start' }, false],
    ['viewer cannot open VNC', viewer, { verb: 'get', group: sub, resource: 'virtualmachineinstances', subresource: 'vnc' }, false],
    ['viewer cannot open the serial console', viewer, { verb: 'get', group: sub, resource: 'virtualmachineinstances', subresource: 'console' }, false],
    ['viewer cannot take a screenshot', viewer, { verb: 'get', group: sub, resource: 'virtualmachineinstances', subresource: 'vnc/screenshot' }, false],
    ['viewer may read guest OS info', viewer, { verb: 'get', group: sub, resource: 'virtualmachineinstances', subresource: 'guestosinfo' }, true],
    ['viewer lists claims', viewer, { verb: 'list', group: '', resource: 'persistentvolumeclaims', namespace: 'default' }, true],
    ['viewer watches volumes', viewer, { verb: 'watch', group: '', resource: 'persistentvolumes' }, true],
    ['viewer reads storage classes', viewer, { verb: 'get', group: 'storage.k8s.io', resource: 'storageclasses', name: 'fast' }, true],
    ['viewer cannot resize a claim', viewer, { verb: 'patch', group: '', resource: 'persistentvolumeclaims', namespace: 'default', name: 'c' }, false],
    ['viewer cannot read secrets', viewer, { verb: 'get', group: '', resource: 'secrets', namespace: 'default' }, false],
    ['anyone signed in may review their own access', nobody, { verb: 'create', group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' }, true],
    ['but not someone else\'s', nobody, { verb: 'create', group: 'authorization.k8s.io', resource: 'subjectaccessreviews' }, false],
    ['a user with no group reads nothing', nobody, { verb: 'get', resource: 'pods', namespace: 'default' }, false],
  ])('%s', (_name, user, attrs, allowed) => {
    expect(authorize(user, attrs).allowed).toBe(allowed);
  });
});
