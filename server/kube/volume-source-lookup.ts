/**
 * The PVCs, DataVolumes and DataSources `inferFromVolume` reads, from the API server (one GET
 * each, at VM admission; KubeVirt reads them the same way). A missing object is `undefined`.
 */
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { DataVolumeResource, type VolumeSourceLookups } from '../../lib/kubevirt';
import { unlessNotFound } from './api-errors';

interface CdiObject { metadata?: { labels?: Record<string, string> }; spec?: Record<string, unknown> }

export function volumeSourceLookups(kc: KubeConfig): VolumeSourceLookups {
  const core = kc.makeApiClient(CoreV1Api);
  const custom = kc.makeApiClient(CustomObjectsApi);
  const cdi = (plural: string) => async (namespace: string, name: string) => {
    const obj = await unlessNotFound(custom.getNamespacedCustomObject({ group: DataVolumeResource.group, version: DataVolumeResource.version, plural, namespace, name }) as Promise<CdiObject>);
    return obj && { labels: obj.metadata?.labels, spec: obj.spec };
  };
  return {
    pvc: async (namespace, name) => {
      const pvc = await unlessNotFound(core.readNamespacedPersistentVolumeClaim({ namespace, name }));
      return pvc && { labels: pvc.metadata?.labels };
    },
    dataVolume: cdi(DataVolumeResource.plural),
    dataSource: cdi('datasources'),
  };
}
