/**
 * Node-level verbs virt-api forwards (pause, unpause, softreboot, guestosinfo), as launcher commands.
 * Launcher errors become HTTP statuses: a domain that is not started is a conflict, the rest 500.
 */
import type { GuestFilesystem, GuestInfo, GuestUser } from '../virt-launcher/protocol';
import { LauncherError } from '../virt-launcher/launcher-client';
import { HttpError } from './http-errors';
import type { LauncherConnections } from './launcher-connections';

export type VMIAction = 'pause' | 'unpause' | 'softReboot' | 'guestInfo' | 'guestUsers' | 'guestFilesystems';

const CONFLICT_REASONS = new Set(['DomainNotStarted', 'GuestAgentNotConnected']);

/** KubeVirt's VirtualMachineInstanceGuestAgentInfo, from the launcher's guestInfo. */
export function toGuestAgentInfo(info: GuestInfo): Record<string, unknown> {
  return {
    kind: 'VirtualMachineInstanceGuestAgentInfo', apiVersion: 'kubevirt.io/v1',
    guestAgentVersion: info.agentVersion ?? '', hostname: info.hostname ?? '', timezone: info.timezone ?? '',
    os: info.os ?? {},
    interfaces: (info.interfaces ?? []).map((i) => ({ interfaceName: i.name, mac: i.mac, ipAddresses: i.ipAddresses })),
  };
}

/** KubeVirt's VirtualMachineInstanceGuestOSUserList. */
export function toUserList(users: GuestUser[]): Record<string, unknown> {
  return { kind: 'VirtualMachineInstanceGuestOSUserList', apiVersion: 'kubevirt.io/v1', metadata: {}, items: users.map((u) => ({ userName: u.userName, domain: u.domain, loginTime: u.loginTime })) };
}

/** KubeVirt's VirtualMachineInstanceFileSystemList. */
export function toFilesystemList(fss: GuestFilesystem[]): Record<string, unknown> {
  return { kind: 'VirtualMachineInstanceFileSystemList', apiVersion: 'kubevirt.io/v1', metadata: {}, items: fss };
}

export async function runVMIAction(conns: LauncherConnections, podDir: string, key: string, action: VMIAction): Promise<unknown> {
  const client = conns.get(podDir, key).client;
  try {
    if (action === 'guestUsers') return toUserList(await client.request('guestUsers'));
    if (action === 'guestFilesystems') return toFilesystemList(await client.request('guestFilesystems'));
    if (action !== 'guestInfo') {
      await client.request(action);
      return undefined;
    }
    const info = await client.request('guestInfo');
    if (!info.connected) throw new HttpError(409, 'VMI does not have guest agent connected');
    return toGuestAgentInfo(info);
  } catch (err) {
    if (err instanceof LauncherError) throw new HttpError(CONFLICT_REASONS.has(err.reason) ? 409 : 500, err.message);
    throw err;
  }
}

/** freeze (with KubeVirt's unfreeze timeout) or unfreeze the guest's filesystems through the agent */
export async function runFreeze(conns: LauncherConnections, podDir: string, key: string, unfreezeTimeoutSeconds: number | undefined): Promise<void> {
  const client = conns.get(podDir, key).client;
  try {
    if (unfreezeTimeoutSeconds === undefined) await client.request('unfreeze');
    else await client.request('freeze', { unfreezeTimeoutSeconds });
  } catch (err) {
    if (err instanceof LauncherError) throw new HttpError(CONFLICT_REASONS.has(err.reason) ? 409 : 500, err.message);
    throw err;
  }
}
