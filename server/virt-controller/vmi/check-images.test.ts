import { describe, expect, it } from 'vitest';
import { checkImages } from './check-images';
import { newVMI, withImage } from './testing-builders';

const store = new Set(['demo', 'quay.io/containerdisks/cirros:latest']);
const exists = (ref: string) => store.has(ref);

describe('checkImages', () => {
  it.each([
    ['demo', undefined],
    ['quay.io/containerdisks/cirros:latest', undefined],
    ['foo', 'image "foo" not found in the local image store; import it with kv images import'],
  ])('%s → %s', (image, message) => {
    expect(checkImages(newVMI(withImage(image)), exists)?.message).toBe(message);
  });

  it('reports ErrImagePull like a kubelet would', () => {
    expect(checkImages(newVMI(withImage('nope')), exists)?.reason).toBe('ErrImagePull');
  });

  it('checks a kernelBoot container image too', () => {
    const vmi = newVMI((v) => { v.spec.domain.firmware = { kernelBoot: { container: { image: 'kernels:6' } } }; });
    expect(checkImages(vmi, exists)?.message).toContain('"kernels:6"');
  });

  it('skips the check when there is no local store (cluster mode)', () => {
    expect(checkImages(newVMI(withImage('anything')), undefined)).toBeUndefined();
  });
});
