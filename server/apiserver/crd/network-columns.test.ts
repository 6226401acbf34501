import { describe, expect, it } from 'vitest';
import { endpointsString, serviceExternalIP, servicePortsString, sliceEndpointsString, slicePortsString } from './network-columns';

describe('Service columns', () => {
  it.each<[string, object, string]>([
    ['ClusterIP', { spec: { type: 'ClusterIP' } }, '<none>'],
    ['ClusterIP with externalIPs', { spec: { type: 'ClusterIP', externalIPs: ['1.2.3.4', '5.6.7.8'] } }, '1.2.3.4,5.6.7.8'],
    ['LoadBalancer waiting', { spec: { type: 'LoadBalancer' } }, '<pending>'],
    ['LoadBalancer with an ingress', { spec: { type: 'LoadBalancer' }, status: { loadBalancer: { ingress: [{ ip: '9.9.9.9' }] } } }, '9.9.9.9'],
    ['ExternalName', { spec: { type: 'ExternalName', externalName: 'example.com' } }, 'example.com'],
  ])('EXTERNAL-IP of %s', (_what, svc, want) => {
    expect(serviceExternalIP(svc)).toBe(want);
  });

  it.each<[object[], string]>([
    [[], '<none>'],
    [[{ port: 80, protocol: 'TCP' }], '80/TCP'],
    [[{ port: 80, protocol: 'TCP', nodePort: 30080 }, { port: 53, protocol: 'UDP' }], '80:30080/TCP,53/UDP'],
  ])('PORT(S) of %j is %s', (ports, want) => {
    expect(servicePortsString({ spec: { ports } })).toBe(want);
  });
});

describe('Endpoints and EndpointSlice columns', () => {
  it('lists up to three ip:port pairs, then how many more', () => {
    const addresses = ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4'].map((ip) => ({ ip }));
    expect(endpointsString({ subsets: [{ addresses, ports: [{ port: 80 }] }] })).toBe('10.0.0.1:80,10.0.0.2:80,10.0.0.3:80 + 1 more...');
    expect(endpointsString({ subsets: [{ addresses: [{ ip: '10.0.0.1' }] }] })).toBe('10.0.0.1');
    expect(endpointsString({})).toBe('<none>');
  });

  it('prints a slice\'s ports and addresses, <unset> when empty', () => {
    expect(slicePortsString({ ports: [{ port: 8080 }, { name: 'dns' }, {}] })).toBe('8080,dns,*');
    expect(sliceEndpointsString({ endpoints: [{ addresses: ['10.244.1.2'] }, { addresses: ['10.244.1.3'] }] })).toBe('10.244.1.2,10.244.1.3');
    expect(slicePortsString({ ports: [] })).toBe('<unset>');
    expect(sliceEndpointsString({ endpoints: [] })).toBe('<unset>');
  });
});
