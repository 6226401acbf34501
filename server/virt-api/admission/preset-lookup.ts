/**
 * The presets virt-api's VMI mutator reads (from an informer's cache, as KubeVirt's virt-api keeps
 * one; a LIST per VMI create until it has synced) and the Warning event it records when a matching
 * preset cannot be applied.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import type { CustomResourceClient } from '../../kube/clients';
import { EventTypeWarning, type EventRecorder } from '../../kube/events';
import type { PresetLookups } from './admitters';
import type { PresetLike } from './mutators/preset-merge';

/** KubeVirt's reason for a preset that could not be applied */
export const PRESET_FAILED_REASON = 'PresetFailed';

/** the presets cache: an informer on every namespace's VirtualMachineInstancePresets */
export interface PresetCache {
  hasSynced(): boolean;
  byIndex(index: typeof BY_NAMESPACE, namespace: string): KubernetesObject[];
}

export const BY_NAMESPACE = 'namespace';

/** `presets`: a client on VirtualMachineInstancePresetResource, read while `cache` has not synced */
export function presetLookups(presets: CustomResourceClient<KubernetesObject>, recorder: EventRecorder, cache?: PresetCache): PresetLookups {
  return {
    list: async (namespace) => (cache?.hasSynced() ? cache.byIndex(BY_NAMESPACE, namespace) : ((await presets.list(namespace)).items ?? [])) as unknown as PresetLike[],
    skipped: (vmi, message) => {
      const meta = (vmi as { metadata?: { name?: string; generateName?: string; namespace?: string } }).metadata ?? {};
      const name = meta.name || meta.generateName || '';
      const obj = { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name, namespace: meta.namespace } };
      void recorder.record(obj, EventTypeWarning, PRESET_FAILED_REASON, message);
    },
  };
}
