/**
 * The Launcher a launcher Pod runs, configured from the Pod's environment. Its own module (with the
 * converter, Domain, migration and network code below it) so `kv launcher` loads it only once its
 * sockets listen (main.ts): the launcher answers sooner, and the load overlaps virt-handler's
 * wait for launcher.ready and the Pod's inputs.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { dataPaths } from '../data-dir';
import { resolveImage } from '../images/image-store';
import { Launcher } from './launcher';
import { detectAccel } from './kvm-probe';
import { hiddenFromQemu } from './qemu-secrets';
import { qemuIdentityFromEnv } from './qemu-user';
import type { OvmfFiles } from './converter/converter-types';

const OVMF_DIR = '/usr/share/OVMF';

/** OVMF 4M images from Debian's ovmf package, when installed. */
export function findOvmf(dir = OVMF_DIR): OvmfFiles | undefined {
  const f = (n: string) => join(dir, n);
  if (!existsSync(f('OVMF_CODE_4M.fd')) || !existsSync(f('OVMF_VARS_4M.fd'))) return undefined;
  const secure = existsSync(f('OVMF_CODE_4M.secboot.fd')) && existsSync(f('OVMF_VARS_4M.ms.fd'));
  return { code: f('OVMF_CODE_4M.fd'), vars: f('OVMF_VARS_4M.fd'), ...(secure ? { secureBootCode: f('OVMF_CODE_4M.secboot.fd'), secureBootVars: f('OVMF_VARS_4M.ms.fd') } : {}) };
}

export function launcherFromEnv(podDir: string, dataDir: string, node: string | undefined): Launcher {
  const paths = dataPaths(dataDir);
  return new Launcher({
    podDir,
    accel: async () => (await detectAccel({ cacheDir: node ? paths.node(node) : undefined })).accel,
    image: (ref) => resolveImage(paths.images, ref),
    ovmf: findOvmf(),
    binary: process.env.KV_QEMU_BINARY,
    hidePaths: () => hiddenFromQemu(dataDir),
    dataDir,
    qemuIdentity: qemuIdentityFromEnv(),
  });
}
