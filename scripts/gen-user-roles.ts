/** Writes deploy/cluster/rbac-user-roles.yaml from the embedded API server's KubeVirt policy. */
import { writeFileSync } from 'node:fs';
import { renderUserRolesManifest } from '../server/apiserver/rbac/user-roles-manifest';

const path = new URL('../deploy/cluster/rbac-user-roles.yaml', import.meta.url);
writeFileSync(path, renderUserRolesManifest());
process.stdout.write('generated deploy/cluster/rbac-user-roles.yaml\n');
