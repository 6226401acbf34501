/** Discovery documents of the aggregated API `subresources.kubevirt.io` (what kubectl and the API server read). */
import { SUBRESOURCES_GROUP } from '../../lib/kubevirt';

export const SERVED_VERSIONS = ['v1', 'v1alpha3'] as const;

interface Sub { name: string; kind: string; verbs: string[] }

const VM_SUBS: Sub[] = ['start', 'stop', 'restart', 'migrate', 'addvolume', 'removevolume'].map((s) => ({ name: `virtualmachines/${s}`, kind: 'VirtualMachine', verbs: ['update'] }));
const VMI_SUBS: Sub[] = [
  ...['pause', 'unpause', 'softreboot', 'addvolume', 'removevolume', 'freeze', 'unfreeze'].map((s) => ({ name: `virtualmachineinstances/${s}`, kind: 'VirtualMachineInstance', verbs: ['update'] })),
  ...['vnc', 'console', 'portforward', 'guestosinfo', 'userlist', 'filesystemlist', 'vnc/screenshot'].map((s) => ({ name: `virtualmachineinstances/${s}`, kind: 'VirtualMachineInstance', verbs: ['get'] })),
];
const EXPAND: Sub = { name: 'virtualmachines/expand-spec', kind: 'VirtualMachine', verbs: ['get'] };
const EXPAND_VM_SPEC: Sub = { name: 'expand-vm-spec', kind: 'VirtualMachine', verbs: ['update'] };
const VM_PORTFORWARD: Sub = { name: 'virtualmachines/portforward', kind: 'VirtualMachine', verbs: ['get'] };

export function apiResourceList(version: string) {
  return {
    kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${SUBRESOURCES_GROUP}/${version}`,
    resources: [...VM_SUBS, EXPAND, EXPAND_VM_SPEC, VM_PORTFORWARD, ...VMI_SUBS].map((s) => ({ name: s.name, singularName: '', namespaced: true, kind: s.kind, verbs: s.verbs })),
  };
}

export function apiGroup() {
  const versions = SERVED_VERSIONS.map((v) => ({ groupVersion: `${SUBRESOURCES_GROUP}/${v}`, version: v }));
  return { kind: 'APIGroup', apiVersion: 'v1', name: SUBRESOURCES_GROUP, versions, preferredVersion: versions[0] };
}
