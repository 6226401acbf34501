/** Registry strategies of Role, ClusterRole, RoleBinding and ClusterRoleBinding: typed decoding, v1 defaults and kube's validation. */
import type { Strategy } from '../strategies';
import { checkBindingShape, checkRoleShape } from './rbac-shape';
import { bindingUpdateCauses, defaultBinding, validateClusterRole, validateClusterRoleBinding, validateRole, validateRoleBinding } from './rbac-validation';

const role = (kind: 'Role' | 'ClusterRole', validate: Strategy['validate'] & object): Strategy => ({
  prepareForCreate: (o) => checkRoleShape(kind, o),
  prepareForUpdate: (o) => checkRoleShape(kind, o),
  validate,
  validateUpdate: (o) => validate(o),
});

const binding = (kind: 'RoleBinding' | 'ClusterRoleBinding', validate: Strategy['validate'] & object): Strategy => ({
  prepareForCreate: (o) => { checkBindingShape(kind, o); defaultBinding(o); },
  prepareForUpdate: (o) => { checkBindingShape(kind, o); defaultBinding(o); },
  validate,
  validateUpdate: bindingUpdateCauses(validate),
});

export const ROLE_STRATEGY = role('Role', validateRole);
export const CLUSTER_ROLE_STRATEGY = role('ClusterRole', validateClusterRole);
export const ROLE_BINDING_STRATEGY = binding('RoleBinding', validateRoleBinding);
export const CLUSTER_ROLE_BINDING_STRATEGY = binding('ClusterRoleBinding', validateClusterRoleBinding);
