import type { KubernetesObject } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { CustomResourceClient } from '../../kube/clients';
import type { EventRecorder } from '../../kube/events';
import { presetLookups, type PresetCache } from './preset-lookup';

const preset = (ns: string, name: string): KubernetesObject => ({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstancePreset', metadata: { namespace: ns, name } });

describe('presetLookups', () => {
  const listed: string[] = [];
  const client = { list: async (ns: string) => { listed.push(ns); return { items: [preset(ns, 'from-api')] }; } } as unknown as CustomResourceClient<KubernetesObject>;
  const recorder = {} as EventRecorder;

  it('reads the namespace\'s presets from the cache once it has synced, from the API server before', async () => {
    let synced = false;
    const cache: PresetCache = { hasSynced: () => synced, byIndex: (_i, ns) => [preset(ns, 'cached')] };
    const lookups = presetLookups(client, recorder, cache);
    expect((await lookups.list('a')).map((p) => (p as KubernetesObject).metadata?.name)).toEqual(['from-api']);
    synced = true;
    expect((await lookups.list('b')).map((p) => (p as KubernetesObject).metadata?.name)).toEqual(['cached']);
    expect(listed).toEqual(['a']);
  });
});
