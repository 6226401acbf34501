/**
 * `kv launcher`: the launcher Pod's command. Environment (set by the kubelet): KV_POD_DIR,
 * KV_DATA_DIR, KV_NODE_NAME. Listens on launcher.sock, runs one domain, exits when QEMU exits
 * (0 after a guest poweroff, a migration or SIGTERM; 1 when QEMU crashed or was killed after an
 * ACPI attempt), leaving `termination.json` {reason, message, exitCode} for the kubelet.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { log } from '../log';
import { dataPaths, defaultDataDir } from '../data-dir';
import { resolveImage } from '../images/image-store';
import { DOMAIN_REASONS, POD_FILES, type DomainStatus } from './protocol';
import { Launcher } from './launcher';
import { LauncherServer } from './launcher-server';
import { PortForwardServer } from './port-forward-server';
import { detectAccel } from './kvm-probe';
import { hiddenFromQemu } from './qemu-secrets';
import { qemuIdentityFromEnv } from './qemu-user';
import type { OvmfFiles } from './converter/converter-types';

const logger = log.child({ component: 'virt-launcher' });
const OVMF_DIR = '/usr/share/OVMF';
const DEFAULT_GRACE_SECONDS = 30;
/** how often the launcher checks that its Pod's dir still exists */
const POD_DIR_CHECK_MS = 2000;

/** OVMF 4M images from Debian's ovmf package, when installed. */
export function findOvmf(dir = OVMF_DIR): OvmfFiles | undefined {
  const f = (n: string) => join(dir, n);
  if (!existsSync(f('OVMF_CODE_4M.fd')) || !existsSync(f('OVMF_VARS_4M.fd'))) return undefined;
  const secure = existsSync(f('OVMF_CODE_4M.secboot.fd')) && existsSync(f('OVMF_VARS_4M.ms.fd'));
  return { code: f('OVMF_CODE_4M.fd'), vars: f('OVMF_VARS_4M.fd'), ...(secure ? { secureBootCode: f('OVMF_CODE_4M.secboot.fd'), secureBootVars: f('OVMF_VARS_4M.ms.fd') } : {}) };
}

/** Launcher exit code for a final domain status (see the file comment). */
export function exitCodeFor(status: DomainStatus, terminating: boolean): number {
  if (terminating) return 0;
  if (status.reason === DOMAIN_REASONS.shutdown || status.reason === DOMAIN_REASONS.migrated) return 0;
  if (status.reason === DOMAIN_REASONS.destroyed) return status.acpiAttempted ? 1 : 0;
  return 1;
}

export async function runLauncherCommand(_argv: string[]): Promise<void> {
  const podDir = process.env.KV_POD_DIR;
  if (!podDir) throw new Error('KV_POD_DIR is not set');
  const dataDir = process.env.KV_DATA_DIR ?? defaultDataDir();
  const node = process.env.KV_NODE_NAME;
  const paths = dataPaths(dataDir);
  const launcher = new Launcher({
    podDir,
    accel: async () => (await detectAccel({ cacheDir: node ? paths.node(node) : undefined })).accel,
    image: (ref) => resolveImage(paths.images, ref),
    ovmf: findOvmf(),
    binary: process.env.KV_QEMU_BINARY,
    hidePaths: () => hiddenFromQemu(dataDir),
    dataDir,
    qemuIdentity: qemuIdentityFromEnv(),
  });
  const server = new LauncherServer(launcher, podDir);
  let terminating = false;

  const finish = async (status: DomainStatus) => {
    const exitCode = exitCodeFor(status, terminating);
    // (no pod dir any more when the Pod was cleaned up under us: nobody reads the file then)
    await writeFile(join(podDir, POD_FILES.termination), `${JSON.stringify({ reason: status.reason ?? 'Completed', message: status.message ?? `domain ${status.state}`, exitCode })}\n`).catch(() => undefined);
    await server.close();
    logger.info({ reason: status.reason, exitCode }, 'launcher exiting');
    process.exit(exitCode);
  };
  launcher.on('exit', (e) => void finish(e.status));

  const onTerm = () => {
    if (terminating) return;
    terminating = true;
    const graceSeconds = launcher.graceSeconds ?? DEFAULT_GRACE_SECONDS;
    logger.info({ graceSeconds }, 'SIGTERM: shutting the domain down');
    if (!launcher.domain?.running) void finish(launcher.domain?.status ?? { vmiUID: '', state: 'shutoff', accel: 'tcg', reason: 'Completed' });
    else void launcher.domain.shutdown(graceSeconds);
  };
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onTerm);
  // the Pod is gone once its dir is: a kubelet that cleaned it up without knowing this process (one
  // killed between starting the launcher and recording it; the crash storm found such a launcher
  // alive after its cluster had stopped) — never outlive the Pod, never leave a QEMU behind
  const podGone = setInterval(() => {
    if (existsSync(podDir)) return;
    clearInterval(podGone);
    logger.warn({ podDir }, 'the pod dir is gone: stopping the domain and exiting');
    void (launcher.domain?.running ? launcher.domain.kill() : Promise.resolve()).finally(() => process.exit(0));
  }, POD_DIR_CHECK_MS);
  podGone.unref();
  const portForward = new PortForwardServer(podDir, (port, protocol) => launcher.guestEndpoint(port, protocol));
  await portForward.listen();
  await server.listen();
  logger.info({ podDir }, 'launcher listening');
}
