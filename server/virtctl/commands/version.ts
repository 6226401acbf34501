/** `virtctl version`: this client's version and the cluster's (the API server's /version). */
import { VersionApi } from '@kubernetes/client-node';
import { KUBEVIRT_TS_VERSION } from '../../../lib/kubevirt/version';
import { messageOf } from '../../kube/api-errors';
import { loadClientConfig } from '../client-config';
import { parseFlags } from '../flags';
import { VirtctlError } from '../virtctl-error';
import type { Output } from '../output';

export async function versionCommand(argv: string[], out: Output): Promise<void> {
  const { global, values } = parseFlags(argv, { client: { type: 'boolean' } });
  out.stdout(`Client Version: kubevirt-ts ${KUBEVIRT_TS_VERSION}\n`);
  if (values.client === true) return;
  const { kc } = loadClientConfig(global);
  const server = await kc.makeApiClient(VersionApi).getCode().catch((err: unknown) => { throw new VirtctlError(`error getting the server version: ${messageOf(err)}`); });
  out.stdout(`Server Version: ${server.gitVersion}\n`);
}
