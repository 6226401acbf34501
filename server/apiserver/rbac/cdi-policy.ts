/**
 * The ClusterRoles CDI's operator installs, cut to what this cluster serves (DataVolumes,
 * DataSources and UploadTokenRequests): cdi.kubevirt.io:admin / :edit / :view, aggregated into kube's default
 * admin / edit / view, so whoever may edit a namespace may fill DataVolumes and ask for upload
 * tokens there, and a viewer may not.
 */
import { AGGREGATE_TO, clusterRole, rule } from './bootstrap-policy';
import type { PolicyRule, Role } from './policy';

const CDI = 'cdi.kubevirt.io';
const UPLOAD = 'upload.cdi.kubevirt.io';

const EDIT_RULES: PolicyRule[] = [
  rule(['*'], [CDI], ['datavolumes', 'datasources']),
  rule(['create'], [CDI], ['datavolumes/source']),
  rule(['*'], [UPLOAD], ['uploadtokenrequests']),
];

const VIEW_RULES: PolicyRule[] = [
  rule(['get', 'list', 'watch'], [CDI], ['datavolumes', 'datasources']),
  rule(['create'], [CDI], ['datavolumes/source']),
];

const APP = { 'cdi.kubevirt.io': '' };

export const CDI_CLUSTER_ROLES: Role[] = [
  clusterRole('cdi.kubevirt.io:admin', EDIT_RULES, { ...APP, [AGGREGATE_TO('admin')]: 'true' }, undefined, false),
  clusterRole('cdi.kubevirt.io:edit', EDIT_RULES, { ...APP, [AGGREGATE_TO('edit')]: 'true' }, undefined, false),
  clusterRole('cdi.kubevirt.io:view', VIEW_RULES, { ...APP, [AGGREGATE_TO('view')]: 'true' }, undefined, false),
];
