/**
 * Reads a VM's instance type and preference from the API server (the object its matcher names:
 * cluster-wide by default, namespaced when `kind` says so). Used by virt-api (admission,
 * expand-spec) and virt-controller (VMI creation).
 */
import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import {
  ClusterInstancetypeResource, ClusterPreferenceResource, DEFAULT_INSTANCETYPE_KIND, DEFAULT_PREFERENCE_KIND,
  InstancetypeResource, PreferenceResource, type Instancetype, type Preference, type ResourceDescriptor,
} from '../../lib/kubevirt';
import { isNotFound } from './api-errors';

export interface Matcher { name: string; kind?: string; revisionName?: string }

export class InstancetypeNotFound extends Error {}

function descriptorFor(kind: string | undefined, which: 'instancetype' | 'preference'): ResourceDescriptor {
  const k = (kind ?? (which === 'instancetype' ? DEFAULT_INSTANCETYPE_KIND : DEFAULT_PREFERENCE_KIND)).toLowerCase();
  if (which === 'instancetype') return k === 'virtualmachineinstancetype' ? InstancetypeResource : ClusterInstancetypeResource;
  return k === 'virtualmachinepreference' ? PreferenceResource : ClusterPreferenceResource;
}

export class InstancetypeLookup {
  private readonly custom: CustomObjectsApi;

  constructor(kc: KubeConfig) {
    this.custom = kc.makeApiClient(CustomObjectsApi);
  }

  private async get<T>(r: ResourceDescriptor, namespace: string, name: string, what: string): Promise<T> {
    const { group, version, plural } = r;
    try {
      const obj: unknown = r.namespaced
        ? await this.custom.getNamespacedCustomObject({ group, version, plural, namespace, name })
        : await this.custom.getClusterCustomObject({ group, version, plural, name });
      return obj as T;
    } catch (err) {
      if (isNotFound(err)) throw new InstancetypeNotFound(`Failure to find ${what}: ${plural}.${group} "${name}" not found`);
      throw err;
    }
  }

  instancetype(m: Matcher, namespace: string): Promise<Instancetype> {
    return this.get<Instancetype>(descriptorFor(m.kind, 'instancetype'), namespace, m.name, 'instancetype');
  }

  preference(m: Matcher, namespace: string): Promise<Preference> {
    return this.get<Preference>(descriptorFor(m.kind, 'preference'), namespace, m.name, 'preference');
  }
}
