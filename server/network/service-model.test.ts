import type { V1EndpointSlice, V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { readyEndpoints, servicePorts } from './service-model';

const slice = (endpoints: { ip: string; ready?: boolean }[], ports: { name?: string; port: number; protocol?: string }[], addressType = 'IPv4'): V1EndpointSlice => ({
  addressType,
  endpoints: endpoints.map((e) => ({ addresses: [e.ip], conditions: e.ready === undefined ? {} : { ready: e.ready } })),
  ports,
});

describe('service model', () => {
  it('keeps ready endpoints (nil ready counts as ready) matched by port name and protocol', () => {
    const s = [slice([{ ip: '10.244.1.3' }, { ip: '10.244.1.2', ready: true }, { ip: '10.244.1.4', ready: false }], [{ name: 'http', port: 8080 }, { name: 'dns', port: 53, protocol: 'UDP' }])];
    expect(readyEndpoints(s, 'http', 'tcp')).toEqual([{ ip: '10.244.1.2', port: 8080 }, { ip: '10.244.1.3', port: 8080 }]);
    expect(readyEndpoints(s, 'dns', 'udp')).toEqual([{ ip: '10.244.1.2', port: 53 }, { ip: '10.244.1.3', port: 53 }]);
    expect(readyEndpoints(s, 'dns', 'tcp')).toEqual([]);
    expect(readyEndpoints(s, '', 'tcp')).toEqual([]);
  });

  it('merges slices, drops duplicates and ignores IPv6 slices', () => {
    const s = [slice([{ ip: '10.244.1.2' }], [{ port: 80 }]), slice([{ ip: '10.244.1.2' }, { ip: '10.244.2.2' }], [{ port: 80 }]), slice([{ ip: 'fd00::1' }], [{ port: 80 }], 'IPv6')];
    expect(readyEndpoints(s, '', 'tcp').map((e) => e.ip)).toEqual(['10.244.1.2', '10.244.2.2']);
  });

  it('lists each port of ClusterIP, NodePort and headless Services; skips ExternalName and unallocated ones', () => {
    const svc = (name: string, spec: V1Service['spec']): V1Service => ({ metadata: { namespace: 'ns', name }, spec });
    const ports = servicePorts(
      [
        svc('np', { type: 'NodePort', clusterIP: '10.96.1.1', ports: [{ name: 'a', port: 80, nodePort: 30001 }, { name: 'b', port: 53, protocol: 'UDP', nodePort: 30002 }] }),
        svc('cip', { type: 'ClusterIP', clusterIP: '10.96.1.2', ports: [{ port: 80, nodePort: 30003 }] }),
        svc('hl', { clusterIP: 'None', ports: [{ port: 5432 }] }),
        svc('ext', { type: 'ExternalName', externalName: 'example.com' }),
        svc('pending', { ports: [{ port: 80 }] }),
        svc('sticky', { clusterIP: '10.96.1.3', sessionAffinity: 'ClientIP', ports: [{ port: 80 }] }),
        svc('sticky-short', { clusterIP: '10.96.1.4', sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } }, ports: [{ port: 80 }] }),
      ],
      (_ns, name) => (name === 'np' ? [slice([{ ip: '10.244.1.2' }], [{ name: 'a', port: 8080 }])] : []),
    );
    expect(Object.fromEntries(ports.filter((p) => p.service.startsWith('sticky')).map((p) => [p.service, p.affinitySeconds]))).toEqual({ sticky: 10800, 'sticky-short': 60 });
    expect(ports.filter((p) => !p.service.startsWith('sticky')).map((p) => [p.service, p.portName, p.protocol, p.clusterIP, p.nodePort, p.endpoints.length])).toEqual([
      ['cip', '', 'tcp', '10.96.1.2', undefined, 0], // a ClusterIP Service's stray nodePort is not served
      ['hl', '', 'tcp', undefined, undefined, 0],
      ['np', 'a', 'tcp', '10.96.1.1', 30001, 1],
      ['np', 'b', 'udp', '10.96.1.1', 30002, 0],
    ]);
  });
});
