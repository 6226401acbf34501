import { describe, expect, it } from 'vitest';
import { renderLauncherPod } from '../virt-controller/vmi/render-launcher-pod';
import { refuseImage } from './image-policy';

const vmi = { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'v', namespace: 'default', uid: 'u' }, spec: { domain: { devices: {}, resources: { requests: { memory: '64Mi' } } } } };

describe('what the embedded kubelet runs', () => {
  it('runs the launcher Pod virt-controller renders', () => {
    const pod = renderLauncherPod(vmi as never);
    expect(refuseImage(pod.spec!.containers[0])).toBeUndefined();
  });

  it.each([
    ['busybox with a shell', { name: 'c', image: 'busybox', command: ['sh', '-c', 'touch /tmp/pwned'] }],
    ['the launcher image with another command', { name: 'c', image: 'kubevirt-ts/virt-launcher:latest', command: ['sh', '-c', 'id'] }],
    ['the launcher image running another kv command', { name: 'c', image: 'kubevirt-ts/virt-launcher:latest', command: ['kv', 'apiserver'] }],
    ['kv launcher from a look-alike image', { name: 'c', image: 'evil/kubevirt-ts/virt-launcher:latest', command: ['kv', 'launcher'] }],
    ['no image', { name: 'c', command: ['kv', 'launcher'] }],
  ])('refuses %s with ErrImagePull and a reason', (_name, container) => {
    const r = refuseImage(container);
    expect(r?.reason).toBe('ErrImagePull');
    expect(r?.message).toMatch(/not runnable by the embedded kubelet/);
  });

  it('accepts the launcher image by tag or digest', () => {
    expect(refuseImage({ name: 'c', image: 'kubevirt-ts/virt-launcher@sha256:abc', command: ['kv'], args: ['launcher'] })).toBeUndefined();
    expect(refuseImage({ name: 'c', image: 'kubevirt-ts/virt-launcher:v1', command: ['kv', 'launcher', '--x'] })).toBeUndefined();
  });

  it('runs the importer image with kv importer only', () => {
    expect(refuseImage({ name: 'c', image: 'kubevirt-ts/cdi-importer:latest', command: ['kv', 'importer'] })).toBeUndefined();
    expect(refuseImage({ name: 'c', image: 'kubevirt-ts/cdi-importer:latest', command: ['kv', 'launcher'] })?.reason).toBe('ErrImagePull');
  });

  it('runs anything when host commands are allowed (kubelet tests)', () => {
    expect(refuseImage({ name: 'c', image: 'busybox', command: ['sleep', '1'] }, true)).toBeUndefined();
  });
});

describe('the project image (deploy/cluster)', () => {
  it.each([
    ['kubevirt-ts:latest with kv handler', { name: 'c', image: 'kubevirt-ts:latest', command: ['kv', 'handler'], args: ['--node', 'n'] }],
    ['a registry-qualified tag', { name: 'c', image: 'quay.io/acme/kubevirt-ts:v1.2', command: ['kv', 'controller'] }],
    ['by digest, args only (the entrypoint is kv)', { name: 'c', image: 'kubevirt-ts@sha256:abc', args: ['virt-api'] }],
  ])('runs %s', (_name, container) => {
    expect(refuseImage(container)).toBeUndefined();
  });

  it.each([
    ['a shell from the project image', { name: 'c', image: 'kubevirt-ts:latest', command: ['sh', '-c', 'id'] }],
    ['nginx', { name: 'c', image: 'nginx', command: ['kv', 'handler'] }],
    ['a look-alike repository', { name: 'c', image: 'kubevirt-ts-evil:latest', command: ['kv', 'handler'] }],
  ])('refuses %s with ErrImagePull', (_name, container) => {
    const r = refuseImage(container);
    expect(r?.reason).toBe('ErrImagePull');
    expect(r?.message).toContain('runs only kubevirt-ts:<tag> with a "kv" command');
  });
});
