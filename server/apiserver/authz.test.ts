import { describe, expect, it } from 'vitest';
import { authorize, forbiddenMessage, GROUP_AUTHENTICATED, GROUP_MASTERS, GROUP_VIEWERS, type ResourceAttributes } from './authz';
import { bootstrapIndex } from './rbac/testing-policy';

const admin = { username: 'admin', groups: [GROUP_MASTERS, GROUP_AUTHENTICATED] };
const viewer = { username: 'viewer', groups: [GROUP_VIEWERS, GROUP_AUTHENTICATED] };
const nobody = { username: 'someone', groups: [GROUP_AUTHENTICATED] };
const sub = 'subresources.kubevirt.io';
const index = bootstrapIndex();
const ctx = { rbac: { current: () => index } } as never;

describe('authorize with the bootstrap policy', () => {
  it.each<[string, typeof admin, ResourceAttributes, boolean]>([
    ['admin does anything', admin, { verb: 'delete', resource: 'pods', namespace: 'default' }, true],
    ['viewer lists VMs', viewer, { verb: 'list', group: 'kubevirt.io', resource: 'virtualmachines' }, true],
    ['viewer cannot create VMs', viewer, { verb: 'create', group: 'kubevirt.io', resource: 'virtualmachines' }, false],
    ['viewer cannot start a VM', viewer, { verb: 'update', group: sub, resource: 'virtualmachines', subresource: 'start' }, false],
    ['viewer cannot open VNC', viewer, { verb: 'get', group: sub, resource: 'virtualmachineinstances', subresource: 'vnc' }, false],
    ['viewer cannot open the serial console', viewer, { verb: 'get', group: sub, resource: 'virtualmachineinstances', subresource: 'console' }, false],
    ['viewer cannot take a screenshot', viewer, { verb: 'get', group: sub, resource: 'virtualmachineinstances', subresource: 'vnc/screenshot' }, false],
    ['viewer cannot port-forward', viewer, { verb: 'get', group: sub, resource: 'virtualmachines', subresource: 'portforward' }, false],
    ['viewer may read guest OS info', viewer, { verb: 'get', group: sub, resource: 'virtualmachineinstances', subresource: 'guestosinfo' }, true],
    ['viewer lists claims', viewer, { verb: 'list', group: '', resource: 'persistentvolumeclaims', namespace: 'default' }, true],
    ['viewer watches volumes', viewer, { verb: 'watch', group: '', resource: 'persistentvolumes' }, true],
    ['viewer reads storage classes', viewer, { verb: 'get', group: 'storage.k8s.io', resource: 'storageclasses', name: 'fast' }, true],
    ['viewer cannot resize a claim', viewer, { verb: 'patch', group: '', resource: 'persistentvolumeclaims', namespace: 'default', name: 'c' }, false],
    ['viewer cannot read secrets', viewer, { verb: 'get', group: '', resource: 'secrets', namespace: 'default' }, false],
    ['viewer reads /metrics as before', viewer, { verb: 'get', path: '/metrics' }, true],
    ['anyone signed in may review their own access', nobody, { verb: 'create', group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' }, true],
    ['and list their own rules', nobody, { verb: 'create', group: 'authorization.k8s.io', resource: 'selfsubjectrulesreviews' }, true],
    ['but not someone else\'s', nobody, { verb: 'create', group: 'authorization.k8s.io', resource: 'subjectaccessreviews' }, false],
    ['a user with no group reads nothing', nobody, { verb: 'get', resource: 'pods', namespace: 'default' }, false],
    ['a signed-in user reads discovery', nobody, { verb: 'get', path: '/apis/kubevirt.io/v1' }, true],
    ['and /version', nobody, { verb: 'get', path: '/version' }, true],
    ['but not /metrics', nobody, { verb: 'get', path: '/metrics' }, false],
    ['a signed-in user reads the KubeVirt version', nobody, { verb: 'get', group: sub, resource: 'version' }, true],
    ['and cluster instance types', nobody, { verb: 'list', group: 'instancetype.kubevirt.io', resource: 'virtualmachineclusterinstancetypes' }, true],
  ])('%s', (_name, user, attrs, allowed) => {
    expect(authorize(ctx, user, attrs).allowed).toBe(allowed);
  });

  it('names the binding that allowed a request, as kube does', () => {
    expect(authorize(ctx, viewer, { verb: 'list', group: 'kubevirt.io', resource: 'virtualmachines' }).reason)
      .toBe('RBAC: allowed by ClusterRoleBinding "kv:viewers" of ClusterRole "view" to Group "kv:viewers"');
  });

  it('words a denied non-resource request as kube does', () => {
    expect(forbiddenMessage(nobody, { verb: 'get', path: '/metrics' })).toBe('forbidden: User "someone" cannot get path "/metrics"');
  });
});
