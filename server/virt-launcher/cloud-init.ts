/**
 * Cloud-init volumes → NoCloud / ConfigDrive ISO files in the pod dir (KubeVirt's
 * pkg/cloud-init). The media are written by server/images/cloud-init-media.ts when it is
 * present; until then by genisoimage here.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CloudInitSource, LauncherVMI } from './vmi-types';
import { checkName } from './qemu-opts';

const run = promisify(execFile);
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
export function planCloudInitMedia(vmi: LauncherVMI, podDir: string): CloudInitPlan[] {
  const { name, namespace = 'default' } = vmi.metadata;
  const hostname = vmi.spec.hostname ?? name;
  const uuid = vmi.spec.domain.firmware?.uuid ?? vmi.metadata.uid ?? `${name}.${namespace}`;
  const plans: CloudInitPlan[] = [];
  for (const vol of vmi.spec.volumes ?? []) {
    const src: CloudInitSource | undefined = vol.cloudInitNoCloud ?? vol.cloudInitConfigDrive;
    if (!src) continue;
    const volume = checkName(vol.name, 'spec.volumes[].name');
    const kind = vol.cloudInitNoCloud ? 'noCloud' : 'configDrive';
    const metaData = kind === 'noCloud'
      ? `instance-id: ${JSON.stringify(uuid)}\nlocal-hostname: ${JSON.stringify(hostname)}\n`
      : JSON.stringify({ instance_id: `${name}.${namespace}`, uuid, hostname, name });
    plans.push({
      volume, kind, path: join(podDir, CLOUD_INIT_DIR, `${volume}.iso`), metaData,
      userData: decode(src.userData, src.userDataBase64), networkData: decode(src.networkData, src.networkDataBase64),
    });
  }
  return plans;
}

interface MediaModule {
  makeNoCloudMedia?: (o: { outFile: string; userData?: string; metaData: string; networkData?: string }) => Promise<void>;
  makeConfigDriveMedia?: (o: { outFile: string; userData?: string; metaData: string; networkData?: string }) => Promise<void>;
}

async function loadMediaModule(): Promise<MediaModule> {
  const specifier = '../images/cloud-init-media';
  return (await import(/* @vite-ignore */ specifier).catch(() => ({}))) as MediaModule;
}

async function writeWithGenisoimage(p: CloudInitPlan): Promise<void> {
  const staging = await mkdtemp(`${p.path}.staging-`);
  try {
    const noCloud = p.kind === 'noCloud';
    const base = noCloud ? staging : join(staging, 'openstack', 'latest');
    await mkdir(base, { recursive: true });
    await writeFile(join(base, noCloud ? 'meta-data' : 'meta_data.json'), p.metaData);
    await writeFile(join(base, noCloud ? 'user-data' : 'user_data'), p.userData ?? '');
    if (p.networkData !== undefined) await writeFile(join(base, noCloud ? 'network-config' : 'network_data.json'), p.networkData);
    await run('genisoimage', ['-quiet', '-output', p.path, '-volid', noCloud ? 'cidata' : 'config-2', '-joliet', '-rock', staging], { timeout: 30_000 });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Writes every planned ISO; returns volume name → path for the converter. */
export async function writeCloudInitMedia(plans: CloudInitPlan[]): Promise<Record<string, string>> {
  const media: Record<string, string> = {};
  if (plans.length === 0) return media;
  const mod = await loadMediaModule();
  for (const p of plans) {
    await mkdir(join(p.path, '..'), { recursive: true });
    const make = p.kind === 'noCloud' ? mod.makeNoCloudMedia : mod.makeConfigDriveMedia;
    const opts = { outFile: p.path, userData: p.userData, metaData: p.metaData, networkData: p.networkData };
    await (make ? make(opts) : writeWithGenisoimage(p));
    media[p.volume] = p.path;
  }
  return media;
}
