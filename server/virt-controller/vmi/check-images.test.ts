import { describe, expect, it } from 'vitest';
import { checkImages } from './check-images';
import { newVMI, withImage } from './testing-builders';
import type { VirtualMachineInstance } from '../../../lib/kubevirt';

const store = new Set(['demo', 'quay.io/containerdisks/cirros:latest']);
const exists = (ref: string) => store.has(ref);
const withPolicy = (policy: 'Always' | 'IfNotPresent' | 'Never') => (v: VirtualMachineInstance) => {
  for (const vol of v.spec?.volumes ?? []) if (vol.containerDisk) vol.containerDisk.imagePullPolicy = policy;
};

describe('checkImages', () => {
  it.each([
    ['demo', undefined],
    ['quay.io/containerdisks/cirros:latest', undefined],
    // not local but pullable: the node's kubelet pulls it and reports failures on the Pod
    ['foo', undefined],
    ['127.0.0.1:5000/containerdisks/demo-disk:v1', undefined],
    ['Not/A/Reference', 'image "Not/A/Reference" not found in the local image store; import it with kv images import'],
  ])('%s → %s', (image, message) => {
    expect(checkImages(newVMI(withImage(image)), exists)?.message).toBe(message);
  });

  it('refuses an image that is not local with imagePullPolicy Never, as a kubelet would', () => {
    expect(checkImages(newVMI(withImage('quay.io/x/y:v1'), withPolicy('Never')), exists)).toEqual({
      reason: 'ErrImageNeverPull', message: 'Container image "quay.io/x/y:v1" is not present with pull policy of Never',
    });
    expect(checkImages(newVMI(withImage('demo'), withPolicy('Never')), exists)).toBeUndefined();
  });

  it('checks a kernelBoot container image in the store (those are not pulled)', () => {
    const vmi = newVMI((v) => { v.spec.domain.firmware = { kernelBoot: { container: { image: 'kernels:6' } } }; });
    expect(checkImages(vmi, exists)).toMatchObject({ reason: 'ErrImagePull', message: expect.stringContaining('"kernels:6"') });
  });

  it('skips the check when there is no local store (cluster mode)', () => {
    expect(checkImages(newVMI(withImage('anything')), undefined)).toBeUndefined();
  });
});
