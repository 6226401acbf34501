/**
 * Cloud-init media as KubeVirt attaches them: an ISO9660 image (Joliet + Rock Ridge) with
 *  - NoCloud: volume id `cidata`, files `meta-data`, `user-data`, `network-config`;
 *  - ConfigDrive: volume id `config-2`, files `openstack/latest/{meta_data.json,user_data,network_data.json}`.
 * Built with genisoimage (Debian package `genisoimage`), or xorrisofs/mkisofs when that is missing.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const NOCLOUD_VOLUME_ID = 'cidata';
export const CONFIG_DRIVE_VOLUME_ID = 'config-2';
const ISO_TOOLS = ['genisoimage', 'xorrisofs', 'mkisofs'];
const CONFIG_DRIVE_DIR = join('openstack', 'latest');

export interface NoCloudMediaOptions {
  outFile: string;
  userData?: string;
  /** YAML (or JSON) text, e.g. `instance-id: <uuid>\nlocal-hostname: <name>\n`. */
  metaData: string;
  networkData?: string;
}

export interface ConfigDriveMediaOptions {
  outFile: string;
  userData?: string;
  /** JSON text, e.g. `{"uuid": "…", "hostname": "…", "instance_id": "<name>.<namespace>"}`. */
  metaData: string;
  /** JSON text (OpenStack network_data.json). */
  networkData?: string;
}

export async function makeNoCloudMedia(opts: NoCloudMediaOptions): Promise<void> {
  await makeIso(opts.outFile, NOCLOUD_VOLUME_ID, [
    ['meta-data', opts.metaData],
    ['user-data', opts.userData],
    ['network-config', opts.networkData],
  ]);
}

export async function makeConfigDriveMedia(opts: ConfigDriveMediaOptions): Promise<void> {
  await makeIso(opts.outFile, CONFIG_DRIVE_VOLUME_ID, [
    [join(CONFIG_DRIVE_DIR, 'meta_data.json'), opts.metaData],
    [join(CONFIG_DRIVE_DIR, 'user_data'), opts.userData],
    [join(CONFIG_DRIVE_DIR, 'network_data.json'), opts.networkData],
  ]);
}

/**
 * A config disk as KubeVirt makes one for a configMap, secret, serviceAccount or downwardAPI volume:
 * an ISO9660 image whose files are the source's keys (label `cfgdata` unless the volume names one).
 */
export async function makeConfigDisk(outFile: string, label: string, files: Record<string, Buffer>): Promise<void> {
  await makeIso(outFile, label, Object.entries(files));
}

/** Writes the files to a scratch dir, builds the ISO next to outFile, then renames it into place. */
async function makeIso(outFile: string, volumeId: string, files: [string, string | Buffer | undefined][]): Promise<void> {
  const tool = findIsoTool();
  const scratch = await mkdtemp(join(tmpdir(), 'kv-cidata-'));
  const partial = `${outFile}.partial`;
  try {
    for (const [name, content] of files) {
      if (content === undefined) continue;
      await mkdir(dirname(join(scratch, name)), { recursive: true });
      await writeFile(join(scratch, name), content);
    }
    await mkdir(dirname(outFile), { recursive: true });
    await run(tool, ['-quiet', '-output', partial, '-volid', volumeId, '-joliet', '-rock', '-input-charset', 'utf-8', scratch]);
    await rename(partial, outFile);
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

function findIsoTool(): string {
  const dirs = (process.env.PATH ?? '/usr/bin:/bin').split(delimiter);
  const tool = ISO_TOOLS.find((t) => dirs.some((d) => existsSync(join(d, t))));
  if (!tool) throw new Error('no ISO9660 tool found: install genisoimage (apt-get install genisoimage)');
  return tool;
}
