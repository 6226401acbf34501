import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { parse } from 'node:url';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { log } from '../log';
import { finishRun, stopSignal, type SharedRun } from '../shared-run';
import { recordConsoleUrl } from './login-link';
import { runLoginLinkCommand } from './login-link-command';
import { registerConsole } from './register';
import { screenConsoleRequest } from './request-screen';
import { rejectUpgrade } from './upgrade-reject';
import { requestPathname } from '../http/request-target';
import { checkProductionBuild, lazyNextHandler } from './next-handler';

const consoleLog = log.child({ component: 'console' });
const projectDir = fileURLToPath(new URL('../..', import.meta.url));

/** Upgrade handlers of the custom server, by path prefix (`/ws/...`); Next never sees these. */
export type UpgradeHandler = (req: IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) => void;
const upgradeRoutes: { prefix: string; handle: UpgradeHandler }[] = [];
export function addUpgradeRoute(prefix: string, handle: UpgradeHandler): void {
  upgradeRoutes.push({ prefix, handle });
}

/**
 * `kv console`: the web console (Next.js pages, /ws/ sockets, API forwarding) in one custom server.
 * Alone in its process or in `kv control-plane` beside virt-api (`kv up`'s default, to save memory).
 */
export async function runConsoleCommand(argv: string[], shared?: SharedRun): Promise<void> {
  if (argv[0] === 'login-link') return runLoginLinkCommand(argv.slice(1));
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '3000' },
      host: { type: 'string', default: '127.0.0.1' },
      'data-dir': { type: 'string' },
      kubeconfig: { type: 'string' },
      dev: { type: 'boolean', default: false },
    },
  });
  if (values.kubeconfig) process.env.KUBECONFIG = values.kubeconfig;
  if (values['data-dir']) process.env.KV_DATA_DIR = values['data-dir'];
  // console: session store + /ws/watch, /ws/vnc/, /ws/console/ (server/console/register.ts)
  registerConsole(addUpgradeRoute, values['data-dir']);
  const port = Number(values.port);
  const hostname = values.host!;
  if (!values.dev) checkProductionBuild(projectDir);
  // Next.js loads in the background once the listener is up (at once with --dev): /healthz answers
  // without waiting for it, and a page asked for meanwhile waits for the one load
  const { handle, load } = lazyNextHandler({ dev: values.dev!, dir: projectDir, hostname, port });
  if (values.dev) await load();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    const refusal = screenConsoleRequest(req.method, req.url);
    if (refusal) {
      res.writeHead(refusal.code, { 'content-type': 'text/plain; charset=utf-8' }).end(refusal.message);
      return;
    }
    handle(req, res, parse(req.url!, true)).catch((err: unknown) => {
      consoleLog.error({ err, method: req.method, url: req.url }, 'request failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('internal error');
    });
  });
  server.on('upgrade', (req, socket, head) => {
    const pathname = requestPathname(req.url);
    const route = pathname === undefined ? undefined : upgradeRoutes.find((r) => pathname.startsWith(r.prefix));
    if (route) return route.handle(req, socket, head);
    // in development Next answers its own HMR upgrades under /_next/; anything else is refused
    if (values.dev && pathname?.startsWith('/_next/')) return;
    rejectUpgrade(socket, 404, 'no WebSocket endpoint here');
  });
  await new Promise<void>((r) => server.listen(port, hostname, r));
  // virt-api is its own process (`kv virt-api`); the console reaches it only through the API
  // server's aggregation of subresources.kubevirt.io, with the signed-in user's identity.
  if (values['data-dir']) recordConsoleUrl(values['data-dir'], `http://${hostname}:${port}`);
  consoleLog.info({ url: `http://${hostname}:${port}` }, 'console ready');
  if (!values.dev) void load().catch((err: unknown) => consoleLog.error({ err }, 'loading Next.js failed: the next page request tries again'));
  const signal = stopSignal(shared, (sig) => consoleLog.info({ signal: sig }, 'console stopping'));
  if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
  await new Promise((resolve) => server.close(resolve));
  finishRun(shared);
}
