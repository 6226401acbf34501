/** `kv up` creates the common instance types and preferences (kept when they exist: a user may have changed them). */
import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { commonInstancetypes, commonPreferences, INSTANCETYPE_GROUP, INSTANCETYPE_VERSION } from '../../lib/kubevirt';
import { isConflict } from '../kube/api-errors';

export async function ensureCommonInstancetypes(kc: KubeConfig): Promise<number> {
  const custom = kc.makeApiClient(CustomObjectsApi);
  const objects = [
    ...commonInstancetypes().map((body) => ({ plural: 'virtualmachineclusterinstancetypes', body })),
    ...commonPreferences().map((body) => ({ plural: 'virtualmachineclusterpreferences', body })),
  ];
  let created = 0;
  for (const { plural, body } of objects) {
    try {
      await custom.createClusterCustomObject({ group: INSTANCETYPE_GROUP, version: INSTANCETYPE_VERSION, plural, body });
      created++;
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
  }
  return created;
}
