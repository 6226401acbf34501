/**
 * The launcher's view of its claims: the kubelet links each claim volume into the Pod
 * (`<pod dir>/volumes/<name>` here, the mount path in cluster mode: KV_VOLUMES_DIR); a directory is a
 * Filesystem claim, anything else the Block device. The capacity comes from the VMI's volumeStatus
 * (virt-controller copies it from the claim).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { parseQuantity } from '../../lib/kubevirt/quantity';
import type { ClaimMount } from './converter/converter-types';
import type { LauncherVMI } from './vmi-types';

export const POD_VOLUMES_DIR = 'volumes';

export function volumesDir(podDir: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.KV_VOLUMES_DIR || join(podDir, POD_VOLUMES_DIR);
}

type ClaimInfo = { capacity?: { storage?: string }; accessModes?: string[] };

function claimInfo(vmi: LauncherVMI, volumeName: string): ClaimInfo | undefined {
  const statuses = (vmi.status as { volumeStatus?: { name?: string; persistentVolumeClaimInfo?: ClaimInfo }[] } | undefined)?.volumeStatus;
  return statuses?.find((s) => s.name === volumeName)?.persistentVolumeClaimInfo;
}

export function claimResolver(dir: string, vmi: LauncherVMI): (volumeName: string) => ClaimMount | undefined {
  return (volumeName) => {
    const path = join(dir, volumeName);
    let isDir: boolean;
    try {
      isDir = statSync(path).isDirectory();
    } catch {
      return undefined;
    }
    const info = claimInfo(vmi, volumeName);
    return { path, block: !isDir, shared: info?.accessModes?.includes('ReadWriteMany') ?? false, capacityBytes: parseQuantity(info?.capacity?.storage) };
  };
}
