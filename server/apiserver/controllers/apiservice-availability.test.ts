import { describe, expect, it } from 'vitest';
import { apiServiceAvailability } from './apiservice-availability';

const api = { spec: { service: { namespace: 'kubevirt', name: 'virt-api', port: 443 } } };
const service = { spec: { ports: [{ name: 'https', port: 443 }] } };

describe('APIService Available condition (kube-aggregator reasons)', () => {
  it('Local without a Service', () => {
    expect(apiServiceAvailability({ spec: {} }, undefined, undefined)).toEqual({ status: 'True', reason: 'Local', message: 'Local APIServices are always available' });
  });
  it('ServiceNotFound, ServicePortError, MissingEndpoints, then Passed once an address is ready', () => {
    expect(apiServiceAvailability(api, undefined, undefined)).toEqual({ status: 'False', reason: 'ServiceNotFound', message: 'service/virt-api in "kubevirt" is not present' });
    expect(apiServiceAvailability(api, undefined, { subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port: 8443 }] }] }).reason).toBe('Passed');
    expect(apiServiceAvailability(api, { spec: { ports: [{ name: 'https', port: 8443 }] } }, undefined).reason).toBe('ServicePortError');
    expect(apiServiceAvailability(api, service, undefined)).toEqual({ status: 'False', reason: 'MissingEndpoints', message: 'endpoints for service/virt-api in "kubevirt" have no addresses with port name "https"' });
    // a Pod not Ready yet: only notReadyAddresses, no addresses
    expect(apiServiceAvailability(api, service, { subsets: [{ ports: [{ name: 'https', port: 8443 }] }] }).reason).toBe('MissingEndpoints');
    expect(apiServiceAvailability(api, service, { subsets: [{ addresses: [{ ip: '10.244.1.3' }], ports: [{ name: 'metrics', port: 9000 }] }] }).reason).toBe('MissingEndpoints');
    expect(apiServiceAvailability(api, service, { subsets: [{ addresses: [{ ip: '10.244.1.3' }], ports: [{ name: 'https', port: 8443 }] }] })).toEqual({ status: 'True', reason: 'Passed', message: 'all checks passed' });
  });
});
