/**
 * The kubelet's volume manager, for the volumes a process Pod can have: each `persistentVolumeClaim`
 * volume, once its claim is bound, appears as `<pod dir>/volumes/<volume name>`, a link to the
 * PersistentVolume's directory (Filesystem) or file (Block) on this machine. The container finds it
 * there (KV_VOLUMES_DIR); until every claim is bound the Pod waits in ContainerCreating.
 */
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { CoreV1Api, V1Node, V1PersistentVolume, V1Pod } from '@kubernetes/client-node';
import { isNotFound } from '../kube/api-errors';
import { matchesNodeSelectorTerms } from './node-affinity';

export const VOLUMES_DIR = 'volumes';

export type MountResult = { ready: true } | { ready: false; message: string };

function hostPathOf(pv: V1PersistentVolume): string | undefined {
  return pv.spec?.local?.path ?? pv.spec?.hostPath?.path;
}

/** Resolves and links every claim of the Pod; the first one not ready yet says why. */
export async function mountPodVolumes(core: CoreV1Api, pod: V1Pod, podDir: string, node: V1Node): Promise<MountResult> {
  const namespace = pod.metadata?.namespace ?? 'default';
  const links: [string, string][] = [];
  for (const v of pod.spec?.volumes ?? []) {
    const claimName = v.persistentVolumeClaim?.claimName;
    if (!claimName) continue;
    let pvName: string | undefined;
    try {
      const pvc = await core.readNamespacedPersistentVolumeClaim({ namespace, name: claimName });
      if (pvc.status?.phase !== 'Bound' || !pvc.spec?.volumeName) return { ready: false, message: `waiting for PersistentVolumeClaim "${claimName}" to be bound` };
      pvName = pvc.spec.volumeName;
    } catch (err) {
      if (isNotFound(err)) return { ready: false, message: `persistentvolumeclaim "${claimName}" not found` };
      throw err;
    }
    const pv = await core.readPersistentVolume({ name: pvName });
    const path = hostPathOf(pv);
    if (!path) return { ready: false, message: `volume "${v.name}": PersistentVolume "${pvName}" has no local or hostPath source this node can use` };
    const terms = pv.spec?.nodeAffinity?.required?.nodeSelectorTerms;
    if (terms?.length && !matchesNodeSelectorTerms(terms, node)) return { ready: false, message: `volume "${v.name}": PersistentVolume "${pvName}" is not on node ${node.metadata?.name}` };
    if (pv.spec?.volumeMode !== 'Block') mkdirSync(path, { recursive: true });
    links.push([v.name, path]);
  }
  if (links.length === 0) return { ready: true };
  const dir = join(podDir, VOLUMES_DIR);
  mkdirSync(dir, { recursive: true });
  for (const [name, target] of links) {
    const link = join(dir, name);
    rmSync(link, { force: true });
    symlinkSync(target, link);
  }
  return { ready: true };
}
