import { describe, expect, it } from 'vitest';
import type { ConverterInput } from './converter-types';
import { renderNetArgs } from './qemu-args-net';

function input(podIP?: string): ConverterInput {
  const vmi = {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'web', namespace: 'default', uid: 'u-1' },
    spec: { domain: { devices: { interfaces: [{ name: 'default', masquerade: {}, ports: [{ name: 'http', port: 80 }] }] } }, networks: [{ name: 'default', pod: {} }] },
  } as unknown as ConverterInput['vmi'];
  return { vmi, podDir: '/tmp/p', accel: 'tcg', image: () => undefined, cloudInitMedia: {}, allocateHostPort: () => 40080, podIP };
}

describe('masquerade on the pod network', () => {
  it('answers a declared port on the Pod IP and reports the Pod IP', () => {
    const out = renderNetArgs(input('10.244.1.7'));
    const netdev = out.args[out.args.indexOf('-netdev') + 1];
    expect(netdev).toContain('tcp:10.244.1.7:80-10.0.2.2:80');
    expect(netdev).toContain('tcp:127.0.0.1:40080-10.0.2.2:80');
    expect(out.interfaces[0].ipAddress).toBe('10.244.1.7');
  });

  it('keeps 10.0.2.2 and only the loopback forward without a pod network', () => {
    const out = renderNetArgs(input());
    expect(out.args.join(' ')).not.toContain('10.244.');
    expect(out.interfaces[0].ipAddress).toBe('10.0.2.2');
  });
});

describe('the pod interface bound to a tap', () => {
  it('uses the tap instead of user networking and forwards nothing itself', () => {
    const out = renderNetArgs({ ...input('10.244.1.7'), podTap: { ifaceName: 'default', device: 'tap0', vhost: false } });
    const netdev = JSON.parse(out.args[out.args.indexOf('-netdev') + 1]) as Record<string, unknown>;
    expect(netdev).toEqual({ type: 'tap', id: 'net-default', ifname: 'tap0', script: 'no', downscript: 'no', vhost: false });
    expect(out.hostPorts).toEqual([]);
    expect(out.interfaces[0]).toMatchObject({ name: 'default', ipAddress: '10.244.1.7' });
  });
});

describe('spec macAddress', () => {
  it.each([['02-5A-00-00-00-01'], ['025a.0000.0001'], ['02:5A:00:00:00:01']])('%s reaches QEMU as 02:5a:00:00:00:01', (mac) => {
    const i = input();
    (i.vmi.spec.domain.devices!.interfaces![0] as { macAddress?: string }).macAddress = mac;
    expect(renderNetArgs(i).interfaces[0].mac).toBe('02:5a:00:00:00:01');
  });
});
