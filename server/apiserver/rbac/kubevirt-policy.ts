/**
 * The ClusterRoles KubeVirt's operator installs (virt-operator's generated RBAC), so the
 * default view / edit / admin roles include VM rights through their aggregate-to-* labels;
 * kubevirt.io:migrate stands alone and is bound on purpose. Plus this cluster's own binding of
 * the kv:viewers group (the read-only token) to `view` and to the cluster-scoped reads the
 * console needs.
 */
import { AGGREGATE_TO, clusterRole, clusterRoleBinding, rule } from './bootstrap-policy';
import type { Binding, PolicyRule, Role } from './policy';
import { CDI_CLUSTER_ROLES } from './cdi-policy';

const READ = ['get', 'list', 'watch'];
const EDIT = ['get', 'delete', 'create', 'update', 'patch', 'list', 'watch'];
const ADMIN = [...EDIT, 'deletecollection'];
const SUB = 'subresources.kubevirt.io';
const APP = { 'kubevirt.io': '' };

const VMI_SUB = (...names: string[]) => names.map((n) => `virtualmachineinstances/${n}`);
const VM_SUB = (...names: string[]) => names.map((n) => `virtualmachines/${n}`);
const INSTANCETYPES = ['virtualmachineinstancetypes', 'virtualmachineclusterinstancetypes', 'virtualmachinepreferences', 'virtualmachineclusterpreferences'];
const CORE = ['virtualmachines', 'virtualmachineinstances', 'virtualmachineinstancepresets', 'virtualmachineinstancereplicasets'];

/** the rules edit and admin share, with the verbs on the objects they own */
function editRules(objectVerbs: string[], admin: boolean): PolicyRule[] {
  return [
    rule(['get'], [SUB], [...VMI_SUB('console', 'vnc', ...(admin ? ['vnc/screenshot'] : []), 'portforward', 'guestosinfo', 'filesystemlist', 'userlist', 'sev/fetchcertchain', 'sev/querylaunchmeasurement', 'usbredir', 'objectgraph'), ...VM_SUB('objectgraph')]),
    rule(['update'], [SUB], VMI_SUB('pause', 'unpause', 'addvolume', 'removevolume', 'freeze', 'unfreeze', 'softreboot', 'reset', 'sev/setupsession', 'sev/injectlaunchsecret', 'evacuate/cancel')),
    rule(['get'], [SUB], VM_SUB('expand-spec', 'portforward')),
    rule(['update'], [SUB], VM_SUB('start', 'stop', 'restart', 'addvolume', 'removevolume', 'memorydump', 'removememorydump', 'evacuate/cancel')),
    rule(['update'], [SUB], ['expand-vm-spec']),
    rule(objectVerbs, ['kubevirt.io'], CORE),
    rule(READ, ['kubevirt.io'], ['virtualmachineinstancemigrations']),
    rule(objectVerbs, ['snapshot.kubevirt.io'], ['virtualmachinesnapshots', 'virtualmachinesnapshotcontents', 'virtualmachinerestores']),
    rule(objectVerbs, ['backup.kubevirt.io'], ['virtualmachinebackups', 'virtualmachinebackuptrackers']),
    ...(admin ? [rule(objectVerbs, ['plugin.kubevirt.io'], ['plugins'])] : []),
    rule(objectVerbs, ['export.kubevirt.io'], ['virtualmachineexports']),
    rule(objectVerbs, ['clone.kubevirt.io'], ['virtualmachineclones']),
    rule(objectVerbs, ['instancetype.kubevirt.io'], INSTANCETYPES),
    rule(objectVerbs, ['pool.kubevirt.io'], ['virtualmachinepools']),
    // ours: the scale subresources this cluster serves (`kubectl scale vmirs|vmpool`), as kube's edit has deployments/scale
    rule(['get', 'update', 'patch'], ['kubevirt.io'], ['virtualmachineinstancereplicasets/scale']),
    rule(['get', 'update', 'patch'], ['pool.kubevirt.io'], ['virtualmachinepools/scale']),
    ...(admin ? [] : [rule(['get', 'list'], ['kubevirt.io'], ['kubevirts'])]),
    rule(READ, ['migrations.kubevirt.io'], ['migrationpolicies']),
  ];
}

const VIEW_RULES: PolicyRule[] = [
  rule(['get', 'list'], ['kubevirt.io'], ['kubevirts']),
  rule(['get'], [SUB], [...VM_SUB('expand-spec'), ...VMI_SUB('guestosinfo', 'filesystemlist', 'userlist', 'sev/fetchcertchain', 'sev/querylaunchmeasurement'), ...VM_SUB('objectgraph'), ...VMI_SUB('objectgraph')]),
  rule(['update'], [SUB], ['expand-vm-spec']),
  rule(READ, ['kubevirt.io'], [...CORE, 'virtualmachineinstancemigrations']),
  rule(READ, ['snapshot.kubevirt.io'], ['virtualmachinesnapshots', 'virtualmachinesnapshotcontents', 'virtualmachinerestores']),
  rule(READ, ['backup.kubevirt.io'], ['virtualmachinebackups', 'virtualmachinebackuptrackers']),
  rule(READ, ['export.kubevirt.io'], ['virtualmachineexports']),
  rule(READ, ['clone.kubevirt.io'], ['virtualmachineclones']),
  rule(READ, ['instancetype.kubevirt.io'], INSTANCETYPES),
  rule(READ, ['pool.kubevirt.io'], ['virtualmachinepools']),
  rule(READ, ['migrations.kubevirt.io'], ['migrationpolicies']),
  rule(READ, ['plugin.kubevirt.io'], ['plugins']),
];

/** kube's view names no cluster-scoped kind: what the read-only token reads besides (as before RBAC) */
const CLUSTER_READER_RULES: PolicyRule[] = [
  rule(READ, [''], ['nodes', 'persistentvolumes', 'namespaces']),
  rule(READ, ['storage.k8s.io'], ['storageclasses']),
  rule(READ, ['apiextensions.k8s.io'], ['customresourcedefinitions']),
  rule(READ, ['apiregistration.k8s.io'], ['apiservices']),
  rule(READ, ['coordination.k8s.io'], ['leases']),
  rule(READ, ['events.k8s.io'], ['events']),
  { nonResourceURLs: ['/metrics'], verbs: ['get'] },
];

export const VIEWER_GROUP = 'kv:viewers';

export const KUBEVIRT_CLUSTER_ROLES: Role[] = [
  clusterRole('kubevirt.io:default', [rule(['get', 'list'], ['kubevirt.io'], ['kubevirts']), rule(['get', 'list'], [SUB], ['version', 'guestfs'])], APP),
  clusterRole('kubevirt.io:admin', editRules(ADMIN, true), { ...APP, [AGGREGATE_TO('admin')]: 'true' }, undefined, false),
  clusterRole('kubevirt.io:edit', editRules(EDIT, false), { ...APP, [AGGREGATE_TO('edit')]: 'true' }, undefined, false),
  clusterRole('kubevirt.io:view', VIEW_RULES, { ...APP, [AGGREGATE_TO('view')]: 'true' }, undefined, false),
  clusterRole('kubevirt.io:migrate', [rule(['update'], [SUB], VM_SUB('migrate')), rule(ADMIN, ['kubevirt.io'], ['virtualmachineinstancemigrations'])], APP, undefined, false),
  clusterRole('instancetype.kubevirt.io:view', [rule(READ, ['instancetype.kubevirt.io'], ['virtualmachineclusterinstancetypes', 'virtualmachineclusterpreferences'])], APP, undefined, false),
  clusterRole('kv:cluster-reader', CLUSTER_READER_RULES),
  ...CDI_CLUSTER_ROLES,
];

export const KUBEVIRT_CLUSTER_ROLE_BINDINGS: Binding[] = [
  clusterRoleBinding('kubevirt.io:default', 'kubevirt.io:default', ['system:authenticated']),
  clusterRoleBinding('instancetype.kubevirt.io:view', 'instancetype.kubevirt.io:view', ['system:authenticated']),
  clusterRoleBinding('kv:viewers', 'view', [VIEWER_GROUP]),
  clusterRoleBinding('kv:viewers:cluster-reader', 'kv:cluster-reader', [VIEWER_GROUP]),
];
