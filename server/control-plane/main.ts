/**
 * `kv control-plane COMMAND [FLAGS] [--and COMMAND [FLAGS]]...`: several components in one Node
 * process (k3s's single server process is the model), each started by its own `kv <command>`
 * runner with its own flags, clients and caches. Only memory is shared: one V8 heap and one copy
 * of the modules (@kubernetes/client-node alone is ~65 MiB per process). A component that fails
 * or ends on its own ends the process, so the supervisor (`kv up`) restarts all of them and they
 * converge from the API server, as each one does after its own restart. SIGTERM stops them all
 * (the kubelets stop their Pods first when asked to) and exits once every one has returned.
 */
import { setMaxListeners } from 'node:events';
import { log } from '../log';
import type { SharedRun } from '../shared-run';
import { parseComponents, type Shareable } from './components';

type SharedRunner = (argv: string[], shared: SharedRun) => Promise<void>;

const RUNNERS: Record<Shareable, () => Promise<SharedRunner>> = {
  scheduler: async () => (await import('../node/main-scheduler')).runSchedulerCommand,
  controller: async () => (await import('../virt-controller/main')).runControllerCommand,
  network: async () => (await import('../network/main')).runNetworkCommand,
  storage: async () => (await import('../storage/main')).runStorageCommand,
  node: async () => (await import('../node/main-kubelet')).runNodeCommand,
  handler: async () => (await import('../virt-handler/main')).runHandlerCommand,
  'virt-api': async () => (await import('../virt-api/main')).runVirtApiCommand,
  console: async () => (await import('../console/main')).runConsoleCommand,
};

const cpLog = log.child({ component: 'control-plane' });

export async function runControlPlaneCommand(argv: string[]): Promise<void> {
  let components;
  try {
    components = parseComponents(argv);
  } catch (err) {
    process.stderr.write(`kv control-plane: ${(err as Error).message}\n`);
    process.exit(2);
  }
  const stop = new AbortController();
  // every informer, controller and server of every component listens for this one abort
  setMaxListeners(0, stop.signal);
  for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => { cpLog.info({ signal: sig }, 'stopping every component'); stop.abort(); });
  const shared: SharedRun = { signal: stop.signal };
  const runners = await Promise.all(components.map((c) => RUNNERS[c.command]()));
  cpLog.info({ components: components.map((c) => c.command) }, 'components starting in one process');
  await Promise.all(components.map(async (c, i) => {
    try {
      await runners[i](c.argv, shared);
    } catch (err) {
      cpLog.fatal({ command: c.command, err: (err as Error).message, stack: (err as Error).stack }, 'component failed; ending the shared process so all restart');
      process.exit(1);
    }
    if (!stop.signal.aborted) {
      cpLog.error({ command: c.command }, 'component ended on its own; ending the shared process so all restart');
      process.exit(1);
    }
  }));
  cpLog.info('every component stopped');
  process.exit(0);
}
