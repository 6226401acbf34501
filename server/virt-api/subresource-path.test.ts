import { describe, expect, it } from 'vitest';
import { parseSubresourcePath } from './subresource-path';

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
