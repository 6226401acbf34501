/**
 * The create form's instance-type and preference choice as one string per picker: a cluster
 * object by its name (`u1.small`), a namespaced one by `Kind/name`
 * (`VirtualMachineInstancetype/team-big`). Names cannot hold a slash, so the two never mix.
 */
import { DEFAULT_INSTANCETYPE_KIND, DEFAULT_PREFERENCE_KIND, type InstancetypeKind, type PreferenceKind } from '../kubevirt/instancetype';

export const NAMESPACED_INSTANCETYPE_KIND: InstancetypeKind = 'VirtualMachineInstancetype';
export const NAMESPACED_PREFERENCE_KIND: PreferenceKind = 'VirtualMachinePreference';

export function encodeInstancetypeChoice(name: string, namespaced: boolean): string {
  return namespaced ? `${NAMESPACED_INSTANCETYPE_KIND}/${name}` : name;
}

export function encodePreferenceChoice(name: string, namespaced: boolean): string {
  return namespaced ? `${NAMESPACED_PREFERENCE_KIND}/${name}` : name;
}

/** The matcher a VM names for a catalogue choice. */
export function instancetypeMatcher(choice: string): { kind: InstancetypeKind; name: string } {
  const prefix = `${NAMESPACED_INSTANCETYPE_KIND}/`;
  return choice.startsWith(prefix) ? { kind: NAMESPACED_INSTANCETYPE_KIND, name: choice.slice(prefix.length) } : { kind: DEFAULT_INSTANCETYPE_KIND, name: choice };
}

export function preferenceMatcher(choice: string): { kind: PreferenceKind; name: string } {
  const prefix = `${NAMESPACED_PREFERENCE_KIND}/`;
  return choice.startsWith(prefix) ? { kind: NAMESPACED_PREFERENCE_KIND, name: choice.slice(prefix.length) } : { kind: DEFAULT_PREFERENCE_KIND, name: choice };
}
