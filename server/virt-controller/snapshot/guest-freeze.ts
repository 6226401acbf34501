/**
 * Online snapshots with a guest agent, as KubeVirt takes them: the VMI's filesystems are frozen
 * through the freeze subresource (virt-api → virt-handler → the agent) while the volumes are copied,
 * then thawed; the launcher thaws on its own after the unfreeze timeout if the thaw is lost.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { hasCondition, VMIConditionType, type VirtualMachineInstance } from '../../../lib/kubevirt';
import { putJson } from '../../kube/raw-request';

export const FREEZE_TIMEOUT = '5m';

const subresource = (vmi: VirtualMachineInstance, verb: 'freeze' | 'unfreeze') =>
  `/apis/subresources.kubevirt.io/v1/namespaces/${encodeURIComponent(vmi.metadata.namespace ?? 'default')}/virtualmachineinstances/${encodeURIComponent(vmi.metadata.name ?? '')}/${verb}`;

export const canFreeze = (vmi: VirtualMachineInstance | undefined): vmi is VirtualMachineInstance =>
  vmi?.status?.phase === 'Running' && hasCondition(vmi, VMIConditionType.AgentConnected, 'True');

export async function freezeGuest(kc: KubeConfig, vmi: VirtualMachineInstance): Promise<void> {
  await putJson(kc, subresource(vmi, 'freeze'), { unfreezeTimeout: FREEZE_TIMEOUT });
}

export async function thawGuest(kc: KubeConfig, vmi: VirtualMachineInstance): Promise<void> {
  await putJson(kc, subresource(vmi, 'unfreeze'), {});
}
