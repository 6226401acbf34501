import { describe, expect, it } from 'vitest';
import { NodeResource, objectSubresourcePath, PodResource, resourcePath, subresourcePath, VirtualMachineInstanceResource, VirtualMachineResource } from './resources';

describe('API paths from the resource descriptors (the only place the UI and servers build them)', () => {
  it('collections across namespaces, in one namespace, and one object; core kinds under /api/v1', () => {
    expect(resourcePath(VirtualMachineResource)).toBe('/apis/kubevirt.io/v1/virtualmachines');
    expect(resourcePath(VirtualMachineResource, { namespace: 'prod' })).toBe('/apis/kubevirt.io/v1/namespaces/prod/virtualmachines');
    expect(resourcePath(PodResource, { namespace: 'prod', name: 'virt-launcher-a' })).toBe('/api/v1/namespaces/prod/pods/virt-launcher-a');
    expect(resourcePath(NodeResource, { namespace: 'ignored', name: 'node-1' })).toBe('/api/v1/nodes/node-1');
  });

  it('encodes namespaces and names, so a hostile name cannot change the path', () => {
    expect(resourcePath(VirtualMachineResource, { namespace: 'a/b', name: '../x?y' })).toBe('/apis/kubevirt.io/v1/namespaces/a%2Fb/virtualmachines/..%2Fx%3Fy');
    expect(subresourcePath(VirtualMachineInstanceResource, 'n s', 'v#1', 'vnc')).toBe('/apis/subresources.kubevirt.io/v1/namespaces/n%20s/virtualmachineinstances/v%231/vnc');
    expect(objectSubresourcePath(PodResource, { namespace: 'ns', name: 'p/q' }, 'eviction')).toBe('/api/v1/namespaces/ns/pods/p%2Fq/eviction');
  });
});
