/** `kv up` creates the StorageClasses `local` (default) and `shared`, kept when they exist. */
import { StorageV1Api, type KubeConfig } from '@kubernetes/client-node';
import { isConflict } from '../kube/api-errors';
import { defaultStorageClasses } from '../storage/storage-classes';

export async function ensureStorageClasses(kc: KubeConfig): Promise<number> {
  const storage = kc.makeApiClient(StorageV1Api);
  let created = 0;
  for (const body of defaultStorageClasses()) {
    try {
      await storage.createStorageClass({ body });
      created++;
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
  }
  return created;
}
