/**
 * configMap, secret, serviceAccount and downwardAPI volumes → ISO disks in the pod dir, as KubeVirt's
 * launcher makes them (pkg/config): one file per key of the source, volume label `cfgdata` unless
 * `volumeLabel` says otherwise. The files come from virt-handler (`LauncherInputs.configVolumes`).
 */
import { join } from 'node:path';
import { makeConfigDisk } from '../../images/cloud-init-media';
import type { LauncherInputs } from '../protocol';
import type { LauncherVMI, Volume } from '../vmi-types';
import { ConverterError, CONVERTER_REASONS } from './converter-error';
import { checkName } from './qemu-opts';

export const CONFIG_DISK_DIR = 'config-disks';
export const DEFAULT_CONFIG_LABEL = 'cfgdata';

export interface ConfigDiskPlan { volume: string; path: string; label: string; files: Record<string, Buffer> }

export const isConfigVolume = (v: Volume): boolean => !!(v.configMap || v.secret || v.serviceAccount || v.downwardAPI);

const labelOf = (v: Volume) => v.configMap?.volumeLabel ?? v.secret?.volumeLabel ?? v.downwardAPI?.volumeLabel ?? DEFAULT_CONFIG_LABEL;

/** a file name inside the ISO: a relative path without `..` (keys are validated by the API server; this is the launcher's own guard) */
function safePath(volume: string, name: string): string {
  if (!name || name.startsWith('/') || name.split('/').some((p) => p === '..' || p === '')) {
    throw new ConverterError(CONVERTER_REASONS.invalidSpec, `spec.volumes[${volume}]: file name ${JSON.stringify(name)} is not a relative path`);
  }
  return name;
}

/** What to write for each config volume (pure). */
export function planConfigDisks(vmi: LauncherVMI, podDir: string, inputs: LauncherInputs = {}): ConfigDiskPlan[] {
  const plans: ConfigDiskPlan[] = [];
  for (const vol of vmi.spec.volumes ?? []) {
    if (!isConfigVolume(vol)) continue;
    const volume = checkName(vol.name, 'spec.volumes[].name');
    const given = inputs.configVolumes?.[vol.name];
    if (!given) throw new ConverterError(CONVERTER_REASONS.invalidSpec, `spec.volumes[${volume}]: virt-handler passed no files for this volume`);
    const files = Object.fromEntries(Object.entries(given).map(([k, v]) => [safePath(volume, k), Buffer.from(v, 'base64')]));
    plans.push({ volume, path: join(podDir, CONFIG_DISK_DIR, `${volume}.iso`), label: labelOf(vol), files });
  }
  return plans;
}

/** Writes every planned ISO; returns volume name → path for the converter. */
export async function writeConfigDisks(plans: ConfigDiskPlan[]): Promise<Record<string, string>> {
  const media: Record<string, string> = {};
  for (const p of plans) {
    await makeConfigDisk(p.path, p.label, p.files);
    media[p.volume] = p.path;
  }
  return media;
}
