/**
 * The launcher Pods on this node, cached (a watch with the kubelet's field selector): virt-handler
 * writes the VMI's Ready condition while the VMI is Running and follows the Pod's readiness for it,
 * as virt-controller does before (lib/kubevirt/vmi-ready.ts). Only changes Ready reads (the Pod's
 * Ready condition, its deletion) sync the VMI again, not every Pod status write.
 */
import { isDeepStrictEqual } from 'node:util';
import type { KubeConfig, KubernetesObject, V1Pod } from '@kubernetes/client-node';
import { Label, LAUNCHER_APP_VALUE } from '../../lib/kubevirt/labels';
import { controllerOwnerKey } from '../kube/controller';
import { Informer } from '../kube/informer';
import { collectionPath, PodResource } from '../kube/resources';

const BY_UID = 'uid';

/** PURE: what of a Pod the VMI's Ready condition depends on. */
export function readyInputs(pod: V1Pod | undefined): unknown {
  return { ready: pod?.status?.conditions?.find((c) => c.type === 'Ready'), deleting: Boolean(pod?.metadata?.deletionTimestamp) };
}

export class LauncherPods {
  readonly informer: Informer<V1Pod & KubernetesObject>;

  constructor(kc: KubeConfig, node: string, enqueue: (vmiKey: string) => void) {
    this.informer = new Informer<V1Pod & KubernetesObject>({
      kc, path: collectionPath(PodResource), fieldSelector: `spec.nodeName=${node}`, labelSelector: `${Label.App}=${LAUNCHER_APP_VALUE}`,
      indexers: { [BY_UID]: (p: V1Pod) => [p.metadata?.uid] },
    });
    const owner = (p: V1Pod) => controllerOwnerKey(p as KubernetesObject, 'VirtualMachineInstance');
    const notify = (p: V1Pod) => { const key = owner(p); if (key) enqueue(key); };
    this.informer.on({
      add: notify,
      update: (old, pod) => { if (!isDeepStrictEqual(readyInputs(old), readyInputs(pod))) notify(pod); },
      delete: notify,
    });
  }

  byUID(uid: string | undefined): V1Pod | undefined {
    return uid ? this.informer.byIndex(BY_UID, uid)[0] : undefined;
  }
}
