import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { lockDataDir } from '../data-dir-lock';
import { log } from '../log';
import { dataPaths, defaultDataDir } from '../data-dir';
import { writeKubeconfig } from './kubeconfig';
import { startApiServer } from './server';
import { COMPONENT_USERS, ensureTokens, tokenFor } from './tokens';

const DEFAULT_PORT = 6443;
/** one API server per store: a second one on the same state.db is refused */
const APISERVER_LOCK_FILE = 'apiserver.lock';

/** `kv apiserver --data-dir DIR --port N`: runs the API server until SIGTERM/SIGINT */
export async function runApiServerCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { 'data-dir': { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, 'advertise-address': { type: 'string' }, 'no-crds': { type: 'boolean' } } });
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const logger = log.child({ component: 'apiserver' });
  let releaseLock: () => void;
  try {
    mkdirSync(dataPaths(dataDir).apiserver, { recursive: true, mode: 0o700 });
    releaseLock = lockDataDir(dataPaths(dataDir).apiserver, 'kv apiserver', APISERVER_LOCK_FILE);
  } catch (err) {
    process.stderr.write(`kv apiserver: ${(err as Error).message}\n`);
    process.exit(2);
  }
  // --no-crds: KubeVirt's CRDs are not installed at start (`kv up --bare`: the install brings them)
  const srv = await startApiServer({ dataDir, port: values.port ? Number(values.port) : DEFAULT_PORT, host: values.host, advertiseAddress: values['advertise-address'], installCRDs: !values['no-crds'] });
  const paths = dataPaths(dataDir);
  // component identities first: whoever waits for DIR/kubeconfig may start components at once
  const tokens = ensureTokens(paths.tokens);
  for (const [component, user] of Object.entries(COMPONENT_USERS)) {
    writeKubeconfig(paths.componentKubeconfig(component), { server: srv.url, caPem: srv.caPem, token: tokenFor(tokens, user), user: component });
  }
  const kubeconfig = paths.kubeconfig;
  writeKubeconfig(kubeconfig, { server: srv.url, caPem: srv.caPem, token: srv.adminToken });
  logger.info({ url: srv.url, kubeconfig }, 'apiserver ready');
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal }, 'apiserver stopping');
      srv.close().catch((err: unknown) => logger.warn({ err: String(err) }, 'closing the API server failed')).finally(() => { releaseLock(); resolve(); });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}
