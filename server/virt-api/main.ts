/**
 * `kv virt-api --data-dir DIR [--kubeconfig F] [--port P] [--host H] [--allowed-origin URL]... [--no-register]`:
 * virt-api as its own process — the `subresources.kubevirt.io` aggregated API, the admission
 * webhooks and the console/VNC streams to the handlers. `kv up` runs it whether or not the console
 * runs; in a cluster its Deployment runs it (KV_VIRT_API_PORT/HOST/REGISTER set the defaults there).
 */
import { parseArgs } from 'node:util';
import { defaultDataDir } from '../data-dir';
import { log } from '../log';
import { finishRun, stopSignal, type SharedRun } from '../shared-run';
import { startVirtApi } from './virt-api-server';

const USAGE = 'usage: kv virt-api --data-dir DIR [--kubeconfig FILE] [--port P] [--host H] [--allowed-origin URL]... [--no-register]\n';

export async function runVirtApiCommand(argv: string[], shared?: SharedRun): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        'data-dir': { type: 'string' }, kubeconfig: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' },
        'allowed-origin': { type: 'string', multiple: true }, 'no-register': { type: 'boolean', default: false }, help: { type: 'boolean', default: false },
      },
    }));
  } catch (err) {
    process.stderr.write(`kv virt-api: ${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) return void process.stdout.write(USAGE);
  const port = Number(values.port ?? process.env.KV_VIRT_API_PORT ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`kv virt-api: --port must be an integer between 0 and 65535\n${USAGE}`);
    process.exit(2);
  }
  const api = await startVirtApi({
    kubeconfig: values.kubeconfig, dataDir: values['data-dir'] ?? defaultDataDir(), port,
    host: values.host ?? process.env.KV_VIRT_API_HOST,
    register: !values['no-register'] && process.env.KV_VIRT_API_REGISTER !== 'false',
    allowedOrigins: values['allowed-origin'] ?? [],
  });
  const logger = log.child({ component: 'virt-api' });
  // alone: SIGTERM/SIGINT stop it and end the process; sharing `kv control-plane` with the console: the host's stop
  const signal = stopSignal(shared, (sig) => logger.info({ signal: sig }, 'virt-api stopping'));
  if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
  await api.close().catch((err: unknown) => logger.warn({ err: (err as Error).message }, 'virt-api close failed'));
  finishRun(shared);
}
