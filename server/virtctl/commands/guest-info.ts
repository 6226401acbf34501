/**
 * `virtctl guestosinfo|userlist|fslist VMI`: what the guest agent reports, printed as indented
 * JSON as KubeVirt's virtctl does (a VMI without an agent: the server's 409 message).
 */
import { VirtualMachineInstanceResource, subresourcePath } from '../../../lib/kubevirt/resources';
import { apiRequest } from '../api-request';
import { loadClientConfig } from '../client-config';
import { exactArgs, parseFlags } from '../flags';
import { VirtctlError } from '../virtctl-error';
import type { Output } from '../output';

const SUBRESOURCE = { guestosinfo: 'guestosinfo', userlist: 'userlist', fslist: 'filesystemlist' } as const;
const FAILURE = { guestosinfo: 'Error getting guestosinfo of VirtualMachineInstance', userlist: 'Error listing users of VirtualMachineInstance', fslist: 'Error listing filesystems of VirtualMachineInstance' } as const;

export async function guestInfoCommand(kind: keyof typeof SUBRESOURCE, argv: string[], out: Output): Promise<void> {
  const { global, positionals } = parseFlags(argv, {});
  const [name] = exactArgs(positionals, 1);
  const { kc, namespace } = loadClientConfig(global);
  let body: unknown;
  try {
    body = JSON.parse((await apiRequest(kc, 'GET', subresourcePath(VirtualMachineInstanceResource, namespace, name, SUBRESOURCE[kind]))).body.toString('utf8'));
  } catch (err) {
    throw new VirtctlError(`${FAILURE[kind]} ${name}, ${err instanceof Error ? err.message : String(err)}`);
  }
  out.stdout(`${JSON.stringify(body, null, 2)}\n`);
}
