/**
 * PURE: the Pod that fills a DataVolume's claim (CDI's importer Pod; a clone uses the same Pod with
 * the source claim mounted). It is the claim's first consumer, so a WaitForFirstConsumer claim is
 * bound on the node the scheduler picks for it; it is owned by the claim, as CDI's is.
 */
import type { V1Affinity, V1EnvVar, V1PersistentVolumeClaim, V1Pod, V1Toleration, V1Volume } from '@kubernetes/client-node';
import { parseQuantity } from '../../lib/kubevirt/quantity';
import { DATA_VOLUME_NAME, Env, SOURCE_VOLUME_NAME } from './importer/importer-env';
import { CDI_APP_LABEL, IMPORTER_IMAGE, sourceKindOf, type DataVolume } from './datavolume-types';

export const importerPodName = (dv: DataVolume): string => `importer-${dv.metadata.name}`;

/** Where the importer may run: the owning VM's placement rules, and the node its sibling disks are on. */
export interface ImporterPlacement {
  nodeSelector?: Record<string, string>;
  affinity?: V1Affinity;
  tolerations?: V1Toleration[];
  /** the node the VM's other node-local disks were placed on */
  node?: string;
}

export function renderImporterPod(dv: DataVolume, pvc: V1PersistentVolumeClaim, placement: ImporterPlacement = {}): V1Pod {
  const kind = sourceKindOf(dv);
  const source = dv.spec.source ?? {};
  const size = pvc.status?.capacity?.storage ?? pvc.spec?.resources?.requests?.storage;
  const env: V1EnvVar[] = [
    { name: Env.Source, value: kind },
    { name: Env.ImageSize, value: String(parseQuantity(size) ?? 0) },
  ];
  if (source.http?.url) env.push({ name: Env.Endpoint, value: source.http.url });
  if (source.http?.checksum) env.push({ name: Env.Checksum, value: source.http.checksum });
  if (source.registry?.url) env.push({ name: Env.Endpoint, value: source.registry.url.replace(/^docker:\/\//, '') });
  const volumes: V1Volume[] = [{ name: DATA_VOLUME_NAME, persistentVolumeClaim: { claimName: pvc.metadata!.name! } }];
  if (source.pvc) volumes.push({ name: SOURCE_VOLUME_NAME, persistentVolumeClaim: { claimName: source.pvc.name, readOnly: true } });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: importerPodName(dv),
      namespace: dv.metadata.namespace,
      labels: { app: CDI_APP_LABEL, 'cdi.kubevirt.io': 'importer', 'cdi.kubevirt.io/dataVolume': dv.metadata.name ?? '' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'PersistentVolumeClaim', name: pvc.metadata!.name!, uid: pvc.metadata!.uid!, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      restartPolicy: 'Never',
      ...(placement.nodeSelector || placement.node ? { nodeSelector: { ...placement.nodeSelector, ...(placement.node ? { 'kubernetes.io/hostname': placement.node } : {}) } } : {}),
      ...(placement.affinity ? { affinity: placement.affinity } : {}),
      ...(placement.tolerations ? { tolerations: placement.tolerations } : {}),
      terminationGracePeriodSeconds: 5,
      containers: [{ name: 'importer', image: IMPORTER_IMAGE, command: ['kv', 'importer'], env, resources: { requests: { cpu: '10m', memory: '60Mi' } } }],
      volumes,
    },
  };
}
