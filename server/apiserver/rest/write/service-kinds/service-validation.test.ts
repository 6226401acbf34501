import { describe, expect, it } from 'vitest';
import { defaultService, inheritAllocated } from './service-defaults';
import { validateService, validateServiceUpdate } from './service-validation';

type Obj = Record<string, unknown>;

const svc = (spec: Obj): Obj => {
  const s: Obj = { metadata: { name: 's', namespace: 'default' }, spec: structuredClone(spec) };
  defaultService(s);
  return s;
};
const messages = (causes: { field?: string; message?: string }[]) => causes.map((c) => `${c.field}: ${c.message}`);

describe('validateService', () => {
  it.each<[string, Obj, string[]]>([
    ['a plain ClusterIP Service', { ports: [{ port: 80 }] }, []],
    ['a headless Service without ports', { clusterIP: 'None' }, []],
    ['a port out of range', { ports: [{ port: 70000, targetPort: 80 }] }, ['spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive']],
    ['port 0', { ports: [{ port: 0, targetPort: 80 }] }, ['spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive']],
    ['an unnamed second port', { ports: [{ name: 'a', port: 80 }, { port: 81 }] }, ['spec.ports[1].name: Required value']],
    ['a duplicate port and protocol', { ports: [{ name: 'a', port: 80 }, { name: 'b', port: 80 }] },
      ['spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}']],
    ['the same port over TCP and UDP', { ports: [{ name: 'a', port: 53 }, { name: 'b', port: 53, protocol: 'UDP' }] }, []],
    ['a duplicate port name', { ports: [{ name: 'a', port: 80 }, { name: 'a', port: 81 }] }, ['spec.ports[1].name: Duplicate value: "a"']],
    ['a bad type', { type: 'Magic', ports: [{ port: 80 }] }, ['spec.type: Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']],
    ['a bad protocol', { ports: [{ port: 80, protocol: 'ICMP' }] }, ['spec.ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"']],
    ['no ports', {}, ['spec.ports: Required value']],
    ['a nodePort on a ClusterIP Service', { ports: [{ port: 80, nodePort: 30001 }] }, ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]],
    ['a nodePort beyond 65535', { type: 'NodePort', ports: [{ port: 80, nodePort: 70000 }] }, ['spec.ports[0].nodePort: Invalid value: 70000: must be between 1 and 65535, inclusive']],
    ['a clusterIP that is no IP', { clusterIP: 'ten', ports: [{ port: 80 }] }, ['spec.clusterIPs[0]: Invalid value: "ten": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']],
    ['a named targetPort with capitals', { ports: [{ port: 80, targetPort: 'Http' }] }, ['spec.ports[0].targetPort: Invalid value: "Http": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)']],
    ['a bad session affinity', { sessionAffinity: 'Sticky', ports: [{ port: 80 }] }, ['spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"']],
    ['an ExternalName without a name', { type: 'ExternalName' }, ['spec.externalName: Required value']],
  ])('%s', (_what, spec, want) => {
    expect(messages(validateService(svc(spec)))).toEqual(want);
  });
});

describe('validateServiceUpdate', () => {
  const old = svc({ clusterIP: '10.96.0.9', ports: [{ port: 80 }] });

  it('refuses a new cluster IP with kube\'s message', () => {
    const next = svc({ clusterIP: '10.96.0.10', ports: [{ port: 80 }] });
    expect(messages(validateServiceUpdate(next, old))).toEqual(['spec.clusterIPs[0]: Invalid value: []string{"10.96.0.10"}: may not change once set']);
  });

  it('lets an update without a cluster IP keep the stored one', () => {
    const next: Obj = { metadata: { name: 's' }, spec: { ports: [{ port: 80 }] } };
    inheritAllocated(next, old);
    defaultService(next);
    expect(next.spec).toMatchObject({ clusterIP: '10.96.0.9', clusterIPs: ['10.96.0.9'] });
    expect(validateServiceUpdate(next, old)).toEqual([]);
  });

  it('keeps node ports on update and drops them when the type becomes ClusterIP', () => {
    const np = svc({ type: 'NodePort', clusterIP: '10.96.0.9', ports: [{ port: 80, nodePort: 30080 }] });
    const same: Obj = { spec: { type: 'NodePort', ports: [{ port: 80 }] } };
    inheritAllocated(same, np);
    expect((same.spec as Obj).ports).toEqual([{ port: 80, nodePort: 30080 }]);
    const back: Obj = { spec: { type: 'ClusterIP', ports: [{ port: 80, nodePort: 30080 }] } };
    inheritAllocated(back, np);
    expect((back.spec as Obj).ports).toEqual([{ port: 80 }]);
  });
});

describe('defaultService', () => {
  it('fills kube\'s defaults', () => {
    expect(svc({ ports: [{ port: 80 }] }).spec).toEqual({
      type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster', ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack',
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
    });
  });

  it('adds externalTrafficPolicy to NodePort and the affinity timeout to ClientIP', () => {
    expect(svc({ type: 'NodePort', sessionAffinity: 'ClientIP', ports: [{ port: 80 }] }).spec).toMatchObject({
      externalTrafficPolicy: 'Cluster', sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
    });
  });

  it('gives an ExternalName Service no IP families', () => {
    expect(svc({ type: 'ExternalName', externalName: 'example.com' }).spec).toEqual({ type: 'ExternalName', externalName: 'example.com', sessionAffinity: 'None' });
  });
});
