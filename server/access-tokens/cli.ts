/**
 * `kv token`: API tokens with a role and a lifetime, for kubectl, scripts or the console's sign-in page.
 *   kv token create --role view|edit|admin [--ttl 8h] [-n NAMESPACE]
 *   kv token list [-o json]
 *   kv token revoke NAME
 * As the cluster admin: --kubeconfig FILE, else $KUBECONFIG, else DIR/kubeconfig (--data-dir DIR).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { KubeConfig } from '@kubernetes/client-node';
import { dataPaths, defaultDataDir } from '../data-dir';
import { parseDurationFlag } from '../duration-flag';
import { messageOf } from '../kube/api-errors';
import { loadKubeConfig } from '../kube/kubeconfig';
import { createAccessToken, listAccessTokens, revokeAccessToken, TOKENS_NAMESPACE } from './access-tokens';
import { TOKEN_ROLES, type TokenRole } from './role-binding';

export const TOKEN_USAGE = `kv token create --role view|edit|admin [--ttl 8h] [-n NAMESPACE] [--data-dir DIR] [--kubeconfig FILE]
       kv token list [-o json]
       kv token revoke NAME`;

const DEFAULT_TTL = '8h';

class UsageError extends Error {}

function adminConfig(values: { kubeconfig?: string; 'data-dir'?: string }): KubeConfig {
  if (values.kubeconfig) return loadKubeConfig(values.kubeconfig);
  if (process.env.KUBECONFIG) return loadKubeConfig();
  const file = dataPaths(resolve(values['data-dir'] ?? defaultDataDir())).kubeconfig;
  if (!existsSync(file)) throw new Error(`no kubeconfig at ${file}: start the cluster with kv up, or give --kubeconfig`);
  return loadKubeConfig(file);
}

async function create(kc: KubeConfig, values: { role?: string; ttl?: string; namespace?: string }): Promise<void> {
  if (!values.role || !TOKEN_ROLES.includes(values.role as TokenRole)) throw new UsageError(`--role must be one of ${TOKEN_ROLES.join(', ')}`);
  const ttlSeconds = parseDurationFlag('--ttl', values.ttl ?? DEFAULT_TTL, { min: 600, max: 2 ** 32 });
  const t = await createAccessToken(kc, { role: values.role as TokenRole, ttlSeconds, namespace: values.namespace });
  process.stdout.write(`${t.token}\n`);
  const scope = t.namespace ? `namespace ${t.namespace}` : 'all namespaces';
  const lines = [
    `kv token: ${t.name}: role ${t.role} in ${scope}, expires ${t.expiresAt}`,
    `kv token: use it with kubectl: kubectl config set-credentials ${t.name} --token=<the token> && kubectl config set-context ${t.name} --cluster=<your cluster> --user=${t.name}`,
    `kv token: revoke it (and every token of ${t.name}) with: kv token revoke ${t.name}`,
  ];
  process.stderr.write(lines.join('\n') + '\n');
}

async function list(kc: KubeConfig, output?: string): Promise<void> {
  const tokens = await listAccessTokens(kc);
  if (output === 'json') return void process.stdout.write(JSON.stringify(tokens, null, 2) + '\n');
  const rows = [['NAME', 'ROLE', 'SCOPE', 'CREATED', 'EXPIRES'], ...tokens.map((t) => [t.name, t.role, t.scope, t.createdAt, t.expiresAt])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  process.stdout.write(rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n') + '\n');
}

export async function runTokenCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      role: { type: 'string' }, ttl: { type: 'string' }, namespace: { type: 'string', short: 'n' },
      output: { type: 'string', short: 'o' }, 'data-dir': { type: 'string' }, kubeconfig: { type: 'string' },
    },
    strict: true,
  });
  const [verb, name] = positionals;
  try {
    if (verb !== 'create' && verb !== 'list' && verb !== 'revoke') throw new UsageError(verb ? `unknown subcommand "${verb}"` : 'a subcommand is required');
    if (verb === 'revoke' && !name) throw new UsageError('revoke needs the token NAME (kv token list shows them)');
    const kc = adminConfig(values);
    if (verb === 'create') return await create(kc, values);
    if (verb === 'list') return await list(kc, values.output);
    if (!(await revokeAccessToken(kc, name!))) throw new Error(`no token named "${name}" in namespace ${TOKENS_NAMESPACE} (kv token list shows them)`);
    process.stdout.write(`kv token: revoked ${name}: its ServiceAccount and role binding are deleted; its tokens no longer work\n`);
  } catch (err) {
    const usage = err instanceof UsageError || /^--ttl /.test((err as Error).message);
    process.stderr.write(`kv token: ${messageOf(err)}\n${usage ? `usage: ${TOKEN_USAGE}\n` : ''}`);
    process.exitCode = usage ? 2 : 1;
  }
}
