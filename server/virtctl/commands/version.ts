/** `virtctl version`: this client's version and the cluster's (the API server's /version). */
import { VersionApi } from '@kubernetes/client-node';
import { createRequire } from 'node:module';
import { messageOf } from '../../kube/api-errors';
import { loadClientConfig } from '../client-config';
import { parseFlags } from '../flags';
import { VirtctlError } from '../virtctl-error';
import type { Output } from '../output';

export function clientVersion(): string {
  const pkg: unknown = createRequire(import.meta.url)('../../../package.json');
  const v = typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string' ? pkg.version : 'unknown';
  return `v${v}`;
}

export async function versionCommand(argv: string[], out: Output): Promise<void> {
  const { global, values } = parseFlags(argv, { client: { type: 'boolean' } });
  out.stdout(`Client Version: kubevirt-ts ${clientVersion()}\n`);
  if (values.client === true) return;
  const { kc } = loadClientConfig(global);
  const server = await kc.makeApiClient(VersionApi).getCode().catch((err: unknown) => { throw new VirtctlError(`error getting the server version: ${messageOf(err)}`); });
  out.stdout(`Server Version: ${server.gitVersion}\n`);
}
