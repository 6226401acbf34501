/**
 * The VirtualMachine a pool creates for one ordinal (KubeVirt's indexVMSpec): the template's
 * labels, annotations and spec; each dataVolumeTemplate named `<name>-<index>` and the volumes
 * that use it renamed alike; with spec.nameGeneration.appendIndexToConfigMapRefs /
 * appendIndexToSecretRefs, ConfigMap, Secret and cloud-init secret references get `-<index>` too.
 */
import type { OwnerReference, VirtualMachine, VirtualMachinePool, VirtualMachineSpec } from '../../../lib/kubevirt';
import { POOL_API_VERSION, POOL_KIND } from './constants';

interface NameGeneration { appendIndexToConfigMapRefs?: boolean; appendIndexToSecretRefs?: boolean }
/** KubeVirt's JSON names: `secretRef` (Go's UserDataSecretRef) and `networkDataSecretRef` */
interface SecretRefs { secretRef?: { name: string }; networkDataSecretRef?: { name: string } }
interface LooseVolume {
  persistentVolumeClaim?: { claimName: string };
  dataVolume?: { name: string };
  configMap?: { name: string };
  secret?: { secretName: string };
  cloudInitNoCloud?: SecretRefs;
  cloudInitConfigDrive?: SecretRefs;
}

export function poolOwnerRef(pool: VirtualMachinePool): OwnerReference {
  return { apiVersion: POOL_API_VERSION, kind: POOL_KIND, name: pool.metadata.name!, uid: pool.metadata.uid!, controller: true, blockOwnerDeletion: true };
}

function suffixSecretRefs(refs: SecretRefs | undefined, suffix: string): void {
  if (refs?.secretRef) refs.secretRef.name += suffix;
  if (refs?.networkDataSecretRef) refs.networkDataSecretRef.name += suffix;
}

function renameVolume(v: LooseVolume, dvNames: Map<string, string>, gen: NameGeneration, suffix: string): void {
  if (v.persistentVolumeClaim) v.persistentVolumeClaim.claimName = dvNames.get(v.persistentVolumeClaim.claimName) ?? v.persistentVolumeClaim.claimName;
  else if (v.dataVolume) v.dataVolume.name = dvNames.get(v.dataVolume.name) ?? v.dataVolume.name;
  else if (v.configMap && gen.appendIndexToConfigMapRefs) v.configMap.name += suffix;
  else if (v.secret && gen.appendIndexToSecretRefs) v.secret.secretName += suffix;
  else if (v.cloudInitNoCloud && gen.appendIndexToSecretRefs) suffixSecretRefs(v.cloudInitNoCloud, suffix);
  else if (v.cloudInitConfigDrive && gen.appendIndexToSecretRefs) suffixSecretRefs(v.cloudInitConfigDrive, suffix);
}

export function indexVMSpec(pool: VirtualMachinePool, index: number): VirtualMachineSpec {
  const spec = structuredClone(pool.spec.virtualMachineTemplate?.spec ?? {}) as VirtualMachineSpec;
  const suffix = `-${index}`;
  const dvNames = new Map<string, string>();
  for (const dv of spec.dataVolumeTemplates ?? []) {
    const name = dv.metadata?.name;
    if (!name) continue;
    dvNames.set(name, name + suffix);
    dv.metadata = { ...dv.metadata, name: name + suffix };
  }
  const gen = (pool.spec as { nameGeneration?: NameGeneration }).nameGeneration ?? {};
  for (const v of (spec.template?.spec?.volumes ?? []) as LooseVolume[]) renameVolume(v, dvNames, gen, suffix);
  return spec;
}

export function renderPoolVM(pool: VirtualMachinePool, name: string, index: number): VirtualMachine {
  const meta = pool.spec.virtualMachineTemplate?.metadata ?? {};
  return {
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachine',
    metadata: {
      name, namespace: pool.metadata.namespace,
      ...(meta.labels ? { labels: { ...meta.labels } } : {}),
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ownerReferences: [poolOwnerRef(pool)],
    },
    spec: indexVMSpec(pool, index),
  } as VirtualMachine;
}
