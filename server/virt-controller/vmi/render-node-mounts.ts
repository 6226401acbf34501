/**
 * PURE: cluster mode only (a real kubelet runs the launcher Pod from an image). The launcher's pod
 * dir and the node's image store are host directories shared with the node's virt-handler:
 *
 *   host /var/lib/kubevirt-ts/nodes/<node>/pods/<podUID>/  → launcher /var/run/kubevirt-ts/pod (KV_POD_DIR)
 *   host /var/lib/kubevirt-ts/images/                      → launcher /var/lib/kubevirt-ts/images (read-only)
 *
 * virt-handler runs with `--data-dir /var/lib/kubevirt-ts` on the same host path, so its
 * `podDirOf(dataDir, node, podUID)` is exactly the launcher's pod dir (docs/cluster-mode.md).
 * The Pod's node and UID are only known once it is bound, hence `subPathExpr` over downward-API env.
 */
import type { V1Container, V1EnvVar, V1Volume } from '@kubernetes/client-node';

export const HOST_DATA_DIR = '/var/lib/kubevirt-ts';
export const LAUNCHER_POD_DIR = '/var/run/kubevirt-ts/pod';
const VOLUME_NODE_PODS = 'kubevirt-ts-pods';
const VOLUME_IMAGES = 'kubevirt-ts-images';

const fieldEnv = (name: string, fieldPath: string): V1EnvVar => ({ name, valueFrom: { fieldRef: { fieldPath } } });

/** Order matters: kube expands `$(VAR)` only from variables defined earlier in the list. */
function renderEnv(): V1EnvVar[] {
  return [
    fieldEnv('KV_NODE_NAME', 'spec.nodeName'),
    fieldEnv('POD_UID', 'metadata.uid'),
    fieldEnv('POD_IP', 'status.podIP'),
    { name: 'KV_DATA_DIR', value: HOST_DATA_DIR },
    { name: 'KV_POD_DIR', value: LAUNCHER_POD_DIR },
    // the migration target's QEMU listens where the source's QEMU can reach it: the Pod IP
    { name: 'KV_MIGRATION_HOST', value: '$(POD_IP)' },
  ];
}

/** The Pod's address for the launcher in embedded mode too: the migration target listens there. */
export function withPodAddressEnv(c: V1Container): V1Container {
  return { ...c, env: [...(c.env ?? []), fieldEnv('POD_IP', 'status.podIP'), { name: 'KV_MIGRATION_HOST', value: '$(POD_IP)' }] };
}

/** KubeVirt's mount point for claim volumes in the launcher (the launcher reads KV_VOLUMES_DIR) */
export const LAUNCHER_VOLUMES_DIR = '/var/run/kubevirt-private/vmi-disks';

/** Cluster mode: each claim volume mounted where the launcher looks for it. */
export function withClaimMounts(c: V1Container, claims: V1Volume[]): V1Container {
  if (claims.length === 0) return c;
  return {
    ...c,
    env: [...(c.env ?? []), { name: 'KV_VOLUMES_DIR', value: LAUNCHER_VOLUMES_DIR }],
    volumeMounts: [...(c.volumeMounts ?? []), ...claims.map((v) => ({ name: v.name, mountPath: `${LAUNCHER_VOLUMES_DIR}/${v.name}`, ...(v.persistentVolumeClaim?.readOnly ? { readOnly: true } : {}) }))],
  };
}

export function renderNodeVolumes(): V1Volume[] {
  return [
    { name: VOLUME_NODE_PODS, hostPath: { path: `${HOST_DATA_DIR}/nodes`, type: 'DirectoryOrCreate' } },
    { name: VOLUME_IMAGES, hostPath: { path: `${HOST_DATA_DIR}/images`, type: 'DirectoryOrCreate' } },
  ];
}

/** The compute container with the pod dir and image store mounted and the launcher's env set. */
export function withNodeMounts(c: V1Container): V1Container {
  return {
    ...c,
    env: [...(c.env ?? []), ...renderEnv()],
    volumeMounts: [
      ...(c.volumeMounts ?? []),
      { name: VOLUME_NODE_PODS, mountPath: LAUNCHER_POD_DIR, subPathExpr: '$(KV_NODE_NAME)/pods/$(POD_UID)' },
      { name: VOLUME_IMAGES, mountPath: `${HOST_DATA_DIR}/images`, readOnly: true },
    ],
  };
}
