/**
 * Cloud-init volumes → NoCloud / ConfigDrive ISO files in the pod dir (KubeVirt's
 * pkg/cloud-init), written by server/images/cloud-init-media.ts. User/network data named by
 * `secretRef` / `networkDataSecretRef` and the SSH keys of accessCredentials propagated through
 * cloud-init (meta-data `public-keys` / `public_keys`) come from virt-handler (`LauncherInputs`).
 * A VMI without cloud-init volumes costs nothing here.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { makeConfigDriveMedia, makeNoCloudMedia } from '../../images/cloud-init-media';
import type { LauncherInputs } from '../protocol';
import type { CloudInitSource, LauncherVMI } from '../vmi-types';
import { checkName } from './qemu-opts';
import { firmwareUUID } from './qemu-args-firmware';

export const CLOUD_INIT_DIR = 'cloud-init';

export interface CloudInitPlan {
  volume: string;
  kind: 'noCloud' | 'configDrive';
  path: string;
  userData?: string;
  metaData: string;
  networkData?: string;
}

function decode(text?: string, base64?: string): string | undefined {
  if (text !== undefined) return text;
  return base64 !== undefined ? Buffer.from(base64, 'base64').toString('utf8') : undefined;
}

/** What to write for each cloud-init volume (pure). */
/** KubeVirt numbers the keys: `"0": key, "1": key …` */
const keyMap = (keys: string[] = []) => Object.fromEntries(keys.map((k, i) => [String(i), k]));

function noCloudMetaData(uuid: string, hostname: string, keys: string[] | undefined): string {
  const base = `instance-id: ${JSON.stringify(uuid)}\nlocal-hostname: ${JSON.stringify(hostname)}\n`;
  if (!keys?.length) return base;
  return `${base}public-keys:\n${keys.map((k, i) => `  "${i}": ${JSON.stringify(k)}\n`).join('')}`;
}

export function planCloudInitMedia(vmi: LauncherVMI, podDir: string, inputs: LauncherInputs = {}): CloudInitPlan[] {
  const { name, namespace = 'default' } = vmi.metadata;
  const hostname = vmi.spec.hostname ?? name;
  const uuid = firmwareUUID(vmi) ?? `${name}.${namespace}`; // the same UUID the guest's SMBIOS reports
  const plans: CloudInitPlan[] = [];
  for (const vol of vmi.spec.volumes ?? []) {
    const src: CloudInitSource | undefined = vol.cloudInitNoCloud ?? vol.cloudInitConfigDrive;
    if (!src) continue;
    const volume = checkName(vol.name, 'spec.volumes[].name');
    const kind = vol.cloudInitNoCloud ? 'noCloud' : 'configDrive';
    const keys = kind === 'noCloud' ? inputs.sshPublicKeys?.noCloud : inputs.sshPublicKeys?.configDrive;
    const metaData = kind === 'noCloud'
      ? noCloudMetaData(uuid, hostname, keys)
      : JSON.stringify({ instance_id: `${name}.${namespace}`, uuid, hostname, name, ...(keys?.length ? { public_keys: keyMap(keys) } : {}) });
    const fromSecrets = inputs.cloudInit?.[vol.name] ?? {};
    plans.push({
      volume, kind, path: join(podDir, CLOUD_INIT_DIR, `${volume}.iso`), metaData,
      userData: src.secretRef ? fromSecrets.userData : decode(src.userData, src.userDataBase64),
      networkData: src.networkDataSecretRef ? fromSecrets.networkData : decode(src.networkData, src.networkDataBase64),
    });
  }
  return plans;
}

/** Writes every planned ISO; returns volume name → path for the converter. */
export async function writeCloudInitMedia(plans: CloudInitPlan[]): Promise<Record<string, string>> {
  const media: Record<string, string> = {};
  if (plans.length === 0) return media;
  for (const p of plans) {
    await mkdir(join(p.path, '..'), { recursive: true });
    const make = p.kind === 'noCloud' ? makeNoCloudMedia : makeConfigDriveMedia;
    await make({ outFile: p.path, userData: p.userData, metaData: p.metaData, networkData: p.networkData });
    media[p.volume] = p.path;
  }
  return media;
}
