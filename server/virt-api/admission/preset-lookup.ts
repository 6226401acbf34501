/**
 * The presets virt-api's VMI mutator reads (one list per VMI create; KubeVirt keeps an informer)
 * and the Warning event it records when a matching preset cannot be applied.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import type { CustomResourceClient } from '../../kube/clients';
import { EventTypeWarning, type EventRecorder } from '../../kube/events';
import type { PresetLookups } from './admitters';
import type { PresetLike } from './mutators/preset-merge';

/** KubeVirt's reason for a preset that could not be applied */
export const PRESET_FAILED_REASON = 'PresetFailed';

/** `presets`: a client on VirtualMachineInstancePresetResource */
export function presetLookups(presets: CustomResourceClient<KubernetesObject>, recorder: EventRecorder): PresetLookups {
  return {
    list: async (namespace) => ((await presets.list(namespace)).items ?? []) as unknown as PresetLike[],
    skipped: (vmi, message) => {
      const meta = (vmi as { metadata?: { name?: string; generateName?: string; namespace?: string } }).metadata ?? {};
      const name = meta.name || meta.generateName || '';
      const obj = { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name, namespace: meta.namespace } };
      void recorder.record(obj, EventTypeWarning, PRESET_FAILED_REASON, message);
    },
  };
}
