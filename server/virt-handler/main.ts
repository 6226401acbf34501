/**
 * `kv handler --node N --data-dir DIR [--kubeconfig F] [--host 127.0.0.1] [--port 0] [--clean-pod-dirs]`:
 * one node's virt-handler. `--clean-pod-dirs` (cluster mode, where no kubelet does it) removes the pod
 * dirs of launcher Pods that are gone (pod-dir-sweep.ts). Survives its own restart: launchers keep running; on start it re-reads every
 * VMI of the node and re-attaches to their launchers (`sync` is idempotent).
 */
import type { AddressInfo } from 'node:net';
import type { KubeConfig } from '@kubernetes/client-node';
import { parseArgs } from 'node:util';
import { defaultDataDir } from '../data-dir';
import { makeKubeClients } from '../kube/clients';
import { EventRecorder } from '../kube/events';
import { loadKubeConfig } from '../kube/kubeconfig';
import { log } from '../log';
import type { SharedRun } from '../shared-run';
import { Phase } from './constants';
import { createHandlerServer } from './handler-server';
import { createHandlerMetrics } from './metrics';
import { MigrationHandler } from './migration/migration-handler';
import { advertiseEndpoint, ensureHandlerToken } from './node-endpoint';
import { nodePodUIDs, runPodDirSweeper } from './pod-dir-sweep';
import { VMIHandler } from './vmi-handler';

export interface HandlerOptions {
  node: string; dataDir: string; kubeconfig?: string; kc?: KubeConfig; host?: string; port?: number;
  /** remove the pod dirs of launcher Pods that are gone (cluster mode: no kubelet does it) */
  cleanPodDirs?: boolean;
}

/** Starts the handler; resolves with its URL and a stop function. */
export async function startHandler(o: HandlerOptions): Promise<{ url: string; stop: () => Promise<void> }> {
  const hlog = log.child({ component: 'virt-handler', node: o.node });
  const clients = makeKubeClients(o.kc ?? loadKubeConfig(o.kubeconfig));
  const recorder = new EventRecorder(clients.core, { component: 'virt-handler', host: o.node });
  const handler = new VMIHandler({ node: o.node, dataDir: o.dataDir, clients, recorder });
  const metrics = createHandlerMetrics(o.node, {
    running: () => handler.list().filter((vmi) => vmi.status?.phase === Phase.Running).flatMap((vmi) => {
      const found = handler.lookup(vmi.metadata.namespace ?? '', vmi.metadata.name ?? '');
      const entry = found && handler.connections.find(found.podDir);
      return entry ? [{ vmi, stats: () => entry.client.request('stats', undefined, { timeoutMs: 2000 }) }] : [];
    }),
  });
  const token = ensureHandlerToken(o.dataDir, o.node);
  const { server } = createHandlerServer({ handler, token, metrics: () => metrics.scrape() });
  await new Promise<void>((resolve) => server.listen(o.port ?? 0, o.host ?? '127.0.0.1', resolve));
  const url = `http://${o.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
  const abort = new AbortController();
  const migrations = new MigrationHandler({ node: o.node, dataDir: o.dataDir, clients, recorder, vmis: handler.vmis, connections: handler.connections });
  const running = Promise.all([handler.run(abort.signal), migrations.run(abort.signal)]);
  void advertiseEndpoint(clients.core, o.node, url, hlog, abort.signal);
  if (o.cleanPodDirs) runPodDirSweeper({ dataDir: o.dataDir, node: o.node, listPodUIDs: nodePodUIDs(clients.core, o.node) }, abort.signal);
  hlog.info({ url }, 'virt-handler started');
  const stop = async () => {
    abort.abort();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await running;
  };
  return { url, stop };
}

export async function runHandlerCommand(argv: string[], shared?: SharedRun): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      node: { type: 'string' }, 'data-dir': { type: 'string' }, kubeconfig: { type: 'string' },
      host: { type: 'string' }, port: { type: 'string' }, 'clean-pod-dirs': { type: 'boolean', default: false },
    },
  });
  const node = values.node ?? process.env.KV_NODE_NAME;
  if (!node) {
    process.stderr.write('kv handler: --node is required\n');
    process.exit(2);
  }
  const h = await startHandler({
    node, dataDir: values['data-dir'] ?? defaultDataDir(), kubeconfig: values.kubeconfig,
    host: values.host, port: values.port ? Number(values.port) : undefined, cleanPodDirs: values['clean-pod-dirs'],
  });
  if (shared) {
    if (!shared.signal.aborted) await new Promise((resolve) => shared.signal.addEventListener('abort', resolve, { once: true }));
    return h.stop();
  }
  const stop = () => { void h.stop().then(() => process.exit(0)); };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
