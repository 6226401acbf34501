import { describe, expect, it } from 'vitest';
import { parseExpandVMSpecPath, parseSubresourcePath } from './subresource-path';

describe('parseSubresourcePath', () => {
  it.each([
    ['/apis/subresources.kubevirt.io/v1/namespaces/default/virtualmachines/vm1/start', { namespace: 'default', resource: 'virtualmachines', name: 'vm1', subresource: 'start' }],
    ['/apis/subresources.kubevirt.io/v1alpha3/namespaces/ns/virtualmachineinstances/a/vnc/screenshot', { namespace: 'ns', resource: 'virtualmachineinstances', name: 'a', subresource: 'vnc/screenshot' }],
    ['/apis/subresources.kubevirt.io/v2/namespaces/ns/virtualmachines/a/start', undefined],
    ['/apis/subresources.kubevirt.io/v1/namespaces/ns/pods/a/start', undefined],
    ['/apis/subresources.kubevirt.io/v1/namespaces/ns/virtualmachines/a', undefined],
    ['/apis/kubevirt.io/v1/namespaces/ns/virtualmachines/a/start', undefined],
  ])('%s', (path, want) => expect(parseSubresourcePath(path)).toEqual(want));
});

describe('parseExpandVMSpecPath', () => {
  it.each([
    ['/apis/subresources.kubevirt.io/v1/namespaces/team/expand-vm-spec', { namespace: 'team' }],
    ['/apis/subresources.kubevirt.io/v1alpha3/namespaces/default/expand-vm-spec', { namespace: 'default' }],
    ['/apis/subresources.kubevirt.io/v1/namespaces//expand-vm-spec', { namespace: '' }],
    ['/apis/subresources.kubevirt.io/v2/namespaces/team/expand-vm-spec', undefined],
    ['/apis/subresources.kubevirt.io/v1/namespaces/team/virtualmachines/a/expand-spec', undefined],
    ['/apis/subresources.kubevirt.io/v1/namespaces/team/expand-vm-spec/x', undefined],
  ])('%s', (path, want) => expect(parseExpandVMSpecPath(path)).toEqual(want));
});
