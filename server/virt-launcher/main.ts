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
import { defaultDataDir } from '../data-dir';
import { DOMAIN_REASONS, POD_FILES, type DomainStatus } from './protocol';
import type { Launcher } from './launcher';
import { LauncherServer, type LauncherHandle } from './launcher-server';
import { PortForwardServer } from './port-forward-server';

const logger = log.child({ component: 'virt-launcher' });
const DEFAULT_GRACE_SECONDS = 30;
/** how often the launcher checks that its Pod's dir still exists */
const POD_DIR_CHECK_MS = 2000;

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
  // The Launcher (converter, Domain, migration, network: most of the launcher's code) loads once both
  // sockets listen: nothing before `sync` needs it, and a request that comes sooner waits for it.
  let launcher: Launcher | undefined;
  let listening!: () => void;
  const loaded: Promise<Launcher> = new Promise<void>((resolve) => { listening = resolve; })
    .then(() => import('./launcher-from-env'))
    .then(({ launcherFromEnv }) => {
      launcher = launcherFromEnv(podDir, dataDir, node);
      launcher.on('exit', (e) => void finish(e.status));
      return launcher;
    });
  loaded.catch((err: Error) => {
    logger.fatal({ err: err.message }, 'the launcher\'s code failed to load');
    process.exit(1);
  });
  const handle: LauncherHandle = {
    handle: async (cmd, args) => (await loaded).handle(cmd, args),
    on: (event, listener) => loaded.then((l) => l.on(event, listener)),
  };
  const server = new LauncherServer(handle, podDir);
  let terminating = false;

  const finish = async (status: DomainStatus) => {
    const exitCode = exitCodeFor(status, terminating);
    // (no pod dir any more when the Pod was cleaned up under us: nobody reads the file then)
    await writeFile(join(podDir, POD_FILES.termination), `${JSON.stringify({ reason: status.reason ?? 'Completed', message: status.message ?? `domain ${status.state}`, exitCode })}\n`).catch(() => undefined);
    await server.close();
    logger.info({ reason: status.reason, exitCode }, 'launcher exiting');
    process.exit(exitCode);
  };

  const onTerm = () => {
    if (terminating) return;
    terminating = true;
    const graceSeconds = launcher?.graceSeconds ?? DEFAULT_GRACE_SECONDS;
    logger.info({ graceSeconds }, 'SIGTERM: shutting the domain down');
    if (!launcher?.domain?.running) void finish(launcher?.domain?.status ?? { vmiUID: '', state: 'shutoff', accel: 'tcg', reason: 'Completed' });
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
    void (launcher?.domain?.running ? launcher.domain.kill() : Promise.resolve()).finally(() => process.exit(0));
  }, POD_DIR_CHECK_MS);
  podGone.unref();
  const portForward = new PortForwardServer(podDir, async (port, protocol) => (await loaded).guestEndpoint(port, protocol));
  await portForward.listen();
  await server.listen();
  logger.info({ podDir }, 'launcher listening');
  listening();
}
