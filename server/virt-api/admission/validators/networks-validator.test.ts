import { describe, expect, it } from 'vitest';
import { validateNetworking } from './networks-validator';
import { config } from '../test-fixtures';
import type { VirtualMachineInstanceSpec } from '../../../../lib/kubevirt/vmi-spec-types';

type Iface = Record<string, unknown>;
const spec = (interfaces: Iface[], networks: Iface[] = [{ name: 'default', pod: {} }]) =>
  ({ domain: { devices: { interfaces } }, networks }) as unknown as VirtualMachineInstanceSpec;
const IF = 'spec.domain.devices.interfaces';
const masq = (extra: Iface = {}): Iface => ({ name: 'default', masquerade: {}, ...extra });

describe('networks and interfaces (KubeVirt admission messages)', () => {
  it.each<[string, VirtualMachineInstanceSpec]>([
    ['masquerade on the pod network', spec([masq({ ports: [{ name: 'http', port: 80 }, { name: 'dns', port: 53, protocol: 'UDP' }] })])],
    ['bridge on the pod network', spec([{ name: 'default', bridge: {}, macAddress: '02:5a:00:00:00:01' }])],
    ['MAC with dashes', spec([masq({ macAddress: '02-5a-00-00-00-01' })])],
    ['two interfaces, different MACs', spec([masq({ macAddress: '02:5a:00:00:00:01' }), { name: 'b', bridge: {}, macAddress: '02:5a:00:00:00:02' }],
      [{ name: 'default', pod: {} }, { name: 'b', multus: { networkName: 'nad' } }])],
  ])('accepts %s', (_what, s) => {
    expect(validateNetworking(s, 'spec', config)).toEqual([]);
  });

  it.each<[string, VirtualMachineInstanceSpec, string, string]>([
    ['an interface naming an unknown network', spec([{ name: 'other', masquerade: {} }]), `${IF}[0].name`, `${IF}[0].name 'other' not found.`],
    ['two pod networks', spec([masq(), { name: 'second', bridge: {} }], [{ name: 'default', pod: {} }, { name: 'second', pod: {} }]), IF,
      `more than one interface is connected to a pod network in ${IF}`],
    ['two pod networks, one interface', spec([masq()], [{ name: 'default', pod: {} }, { name: 'second', pod: {} }]), IF,
      `more than one interface is connected to a pod network in ${IF}`],
    ['duplicate interface names', spec([masq(), masq()]), `${IF}[1].name`, 'Only one interface can be connected to one specific network'],
    ['a malformed MAC', spec([masq({ macAddress: 'de:ad:00:00:be' })]), `${IF}[0].macAddress`, `interface ${IF}[0].name has malformed MAC address (de:ad:00:00:be).`],
    ['a MAC with a bad digit', spec([masq({ macAddress: '02:5a:00:00:00:0g' })]), `${IF}[0].macAddress`, `interface ${IF}[0].name has malformed MAC address (02:5a:00:00:00:0g).`],
    ['the in-pod bridge MAC', spec([masq({ macAddress: '02:00:00:00:00:00' })]), `${IF}[0].macAddress`,
      'The requested MAC address is reserved for the in-pod bridge. Please choose another one.'],
    ['a duplicate MAC', spec([masq({ macAddress: '02:5a:00:00:00:01' }), { name: 'b', bridge: {}, macAddress: '02-5A-00-00-00-01' }],
      [{ name: 'default', pod: {} }, { name: 'b', multus: { networkName: 'nad' } }]), `${IF}[1].macAddress`,
      `interface ${IF}[1].name has MAC address 02-5A-00-00-00-01 already used by interface default`],
    ['a port out of range', spec([masq({ ports: [{ port: 0 }] })]), `${IF}[0].ports[0].port`, 'Port field must be in range 0 < x < 65536.'],
    ['a port above 65535', spec([masq({ ports: [{ port: 65536 }] })]), `${IF}[0].ports[0].port`, 'Port field must be in range 0 < x < 65536.'],
    ['duplicate port names', spec([masq({ ports: [{ name: 'http', port: 80 }, { name: 'http', port: 8080 }] })]), `${IF}[0].ports[1].name`,
      'Duplicate name of the port: http'],
    ['an unknown protocol', spec([masq({ ports: [{ port: 80, protocol: 'SCTP' }] })]), `${IF}[0].ports[0].protocol`, 'Unknown protocol, only TCP or UDP allowed'],
    ['masquerade off the pod network', spec([masq()], [{ name: 'default', multus: { networkName: 'nad' } }]), `${IF}[0].masquerade`,
      'Masquerade interface only implemented with pod network'],
  ])('refuses %s', (_what, s, field, message) => {
    expect(validateNetworking(s, 'spec', config)).toContainEqual(expect.objectContaining({ field, message }));
  });

  it('refuses bridge on the pod network when the cluster does not permit it', () => {
    expect(validateNetworking(spec([{ name: 'default', bridge: {} }]), 'spec', { ...config, permitBridgeInterfaceOnPodNetwork: false }))
      .toContainEqual(expect.objectContaining({ field: `${IF}[0].bridge`, message: 'Bridge on pod network configuration is not enabled under kubevirt-config' }));
  });
});
