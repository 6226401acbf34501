import { describe, expect, it } from 'vitest';
import { podNetworkPorts, renderService } from './expose-service';
import type { VirtualMachineInstanceSpec } from '.';

const spec = (ports: { port: number; protocol?: 'TCP' | 'UDP' }[]): VirtualMachineInstanceSpec => ({
  domain: { devices: { interfaces: [{ name: 'default', masquerade: {}, ports }] } },
  networks: [{ name: 'default', pod: {} }],
});
const owner = { kind: 'VirtualMachine' as const, name: 'web', uid: 'u1', spec: spec([{ port: 80 }, { port: 53, protocol: 'UDP' }]) };
const flags = { name: 'web-svc', protocol: 'TCP', type: 'ClusterIP' };

describe('virtctl expose', () => {
  it('without --port, serves the pod interface\'s declared ports as port-1, port-2', () => {
    expect(podNetworkPorts(owner.spec)).toEqual([{ name: 'port-1', protocol: 'TCP', port: 80 }, { name: 'port-2', protocol: 'UDP', port: 53 }]);
    expect(podNetworkPorts({ domain: { devices: {} } })).toEqual([]);
  });

  it('selects the launcher Pod by vmi.kubevirt.io/id and is owned by the VM', () => {
    const svc = renderService(owner, 'ns', { ...flags, port: 8080, targetPort: 'http' });
    expect(svc.spec).toMatchObject({ selector: { 'vmi.kubevirt.io/id': 'web' }, type: 'ClusterIP', ports: [{ port: 8080, targetPort: 'http', protocol: 'TCP' }] });
    expect(svc.metadata?.ownerReferences).toEqual([{ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', name: 'web', uid: 'u1', controller: true, blockOwnerDeletion: false }]);
    expect(renderService(owner, 'ns', { ...flags, port: 22, targetPort: '2222' }).spec?.ports?.[0].targetPort).toBe(2222);
  });

  it('refuses ExternalName, unknown types and protocols, and a VM with no ports', () => {
    expect(() => renderService(owner, 'ns', { ...flags, type: 'ExternalName' })).toThrow('type: ExternalName not supported');
    expect(() => renderService(owner, 'ns', { ...flags, type: 'Ingress' })).toThrow('unknown service type: Ingress');
    expect(() => renderService(owner, 'ns', { ...flags, protocol: 'SCTP' })).toThrow('unknown protocol: SCTP');
    expect(() => renderService({ ...owner, spec: spec([]) }, 'ns', flags)).toThrow("couldn't find port via --port flag or introspection");
  });
});
