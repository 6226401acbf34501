/** `kv console login-link`: a fresh one-time sign-in link to the running console, as the cluster admin. */
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { dataPaths, defaultDataDir } from '../data-dir';
import { parseDurationFlag } from '../duration-flag';
import { loadKubeConfig } from '../kube/kubeconfig';
import { LOGIN_CODE_TTL_SECONDS, mintLoginLink, recordedConsoleUrl } from './login-link';

export const LOGIN_LINK_USAGE = 'kv console login-link [--data-dir DIR] [--ttl 5m] [--url http://HOST:PORT]';

export async function runLoginLinkCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string' }, ttl: { type: 'string' }, url: { type: 'string' } },
    strict: true,
  });
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir());
  let ttl = LOGIN_CODE_TTL_SECONDS;
  try {
    if (values.ttl !== undefined) ttl = parseDurationFlag('--ttl', values.ttl, { min: 10, max: 24 * 3600 });
  } catch (err) {
    return fail(`${(err as Error).message}\nusage: ${LOGIN_LINK_USAGE}`, 2);
  }
  const base = (values.url ?? recordedConsoleUrl(dataDir))?.replace(/\/+$/, '');
  if (!base) return fail(`no console has run with data dir ${dataDir} (start one with kv up, or give --url)`);
  const token = adminToken(dataPaths(dataDir).kubeconfig);
  if (!token) return fail(`no admin token in ${dataPaths(dataDir).kubeconfig} (is ${dataDir} a kv up data dir?)`);
  const { url, expiresAt } = mintLoginLink(dataDir, base, token, ttl);
  process.stdout.write(`${url}\n`);
  process.stderr.write(`kv console login-link: works once, until ${new Date(expiresAt).toISOString()}\n`);
}

function adminToken(kubeconfig: string): string | undefined {
  try {
    return loadKubeConfig(kubeconfig).getCurrentUser()?.token || undefined;
  } catch {
    return undefined;
  }
}

function fail(message: string, code = 1): void {
  process.stderr.write(`kv console login-link: ${message}\n`);
  process.exitCode = code;
}
