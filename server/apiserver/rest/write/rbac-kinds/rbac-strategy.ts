/** Registry strategies of Role, ClusterRole, RoleBinding and ClusterRoleBinding: v1 defaults and kube's validation. */
import type { Strategy } from '../strategies';
import { bindingUpdateCauses, defaultBinding, validateClusterRole, validateClusterRoleBinding, validateRole, validateRoleBinding } from './rbac-validation';

export const ROLE_STRATEGY: Strategy = { validate: validateRole, validateUpdate: (o) => validateRole(o) };
export const CLUSTER_ROLE_STRATEGY: Strategy = { validate: validateClusterRole, validateUpdate: (o) => validateClusterRole(o) };
export const ROLE_BINDING_STRATEGY: Strategy = {
  prepareForCreate: defaultBinding, prepareForUpdate: defaultBinding,
  validate: validateRoleBinding, validateUpdate: bindingUpdateCauses(validateRoleBinding),
};
export const CLUSTER_ROLE_BINDING_STRATEGY: Strategy = {
  prepareForCreate: defaultBinding, prepareForUpdate: defaultBinding,
  validate: validateClusterRoleBinding, validateUpdate: bindingUpdateCauses(validateClusterRoleBinding),
};
