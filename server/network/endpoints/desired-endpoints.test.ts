import type { V1Pod, V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { desiredSlices, desiredSubsets, sliceLabels } from './desired-endpoints';
import { resolveTargetPort } from './selection';
import { planSlices } from './slice-plan';

interface PodOpts { ip?: string; ready?: boolean; labels?: Record<string, string>; phase?: string; deleting?: boolean; ns?: string; httpPort?: number }

const pod = (name: string, o: PodOpts = {}): V1Pod => ({
  metadata: { name, namespace: o.ns ?? 'ns', uid: `uid-${name}`, labels: o.labels ?? { app: 'web' }, deletionTimestamp: o.deleting ? new Date(0) : undefined },
  spec: { nodeName: 'node-1', containers: [{ name: 'c', ports: o.httpPort ? [{ name: 'http', containerPort: o.httpPort }] : [] }] },
  status: { phase: o.phase ?? 'Running', podIP: o.ip, conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
});

const service = (spec: V1Service['spec'] = {}): V1Service => ({
  metadata: { name: 'web', namespace: 'ns', uid: 'svc-uid', labels: { tier: 'front' } },
  spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' as never, protocol: 'TCP' }], ...spec },
});

const ips = (s: { endpoints: { addresses: string[] }[] }) => s.endpoints.map((e) => e.addresses[0]);

describe('desiredSlices', () => {
  it.each<[string, V1Pod, boolean]>([
    ['a Pod without an IP', pod('a', { httpPort: 8080 }), false],
    ['a Pod on user networking (127.0.0.1)', pod('a', { ip: '127.0.0.1', httpPort: 8080 }), false],
    ['a finished Pod', pod('a', { ip: '10.244.1.2', phase: 'Succeeded', httpPort: 8080 }), false],
    ['a Pod of another namespace', pod('a', { ip: '10.244.1.2', ns: 'other', httpPort: 8080 }), false],
    ['a Pod without the labels', pod('a', { ip: '10.244.1.2', labels: { app: 'db' }, httpPort: 8080 }), false],
    ['a Pod lacking the named port', pod('a', { ip: '10.244.1.2' }), false],
    ['a running Pod with the port', pod('a', { ip: '10.244.1.2', httpPort: 8080 }), true],
  ])('%s is an endpoint: %s', (_what, p, want) => {
    expect(desiredSlices(service(), [p])[0].endpoints.length).toBe(want ? 1 : 0);
  });

  it('gives readiness, serving and terminating as kube does', () => {
    const [slice] = desiredSlices(service(), [
      pod('ready', { ip: '10.244.1.2', httpPort: 8080 }),
      pod('unready', { ip: '10.244.1.3', httpPort: 8080, ready: false }),
      pod('leaving', { ip: '10.244.1.4', httpPort: 8080, deleting: true }),
    ]);
    expect(slice.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    expect(slice.endpoints.map((e) => [e.addresses[0], e.conditions])).toEqual([
      ['10.244.1.2', { ready: true, serving: true, terminating: false }],
      ['10.244.1.3', { ready: false, serving: false, terminating: false }],
      ['10.244.1.4', { ready: false, serving: true, terminating: true }],
    ]);
    expect(slice.endpoints[0]).toMatchObject({ nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'ns', name: 'ready', uid: 'uid-ready' } });
  });

  it('names the endpoint after the Pod\'s hostname when its subdomain is the Service', () => {
    const named = { ...pod('n', { ip: '10.244.1.2', httpPort: 8080 }) };
    named.spec = { ...named.spec!, hostname: 'db-0', subdomain: 'web' };
    const other = { ...pod('o', { ip: '10.244.1.3', httpPort: 8080 }) };
    other.spec = { ...other.spec!, hostname: 'db-1', subdomain: 'elsewhere' };
    expect(desiredSlices(service(), [named, other])[0].endpoints.map((e) => e.hostname)).toEqual(['db-0', undefined]);
    expect(desiredSubsets(service(), [named])[0].addresses?.[0].hostname).toBe('db-0');
  });

  it('publishNotReadyAddresses makes every Pod ready', () => {
    const [slice] = desiredSlices(service({ publishNotReadyAddresses: true }), [pod('u', { ip: '10.244.1.3', httpPort: 8080, ready: false })]);
    expect(slice.endpoints[0].conditions.ready).toBe(true);
  });

  it('splits Pods whose named port differs into two slices, ordered by address', () => {
    const slices = desiredSlices(service(), [pod('b', { ip: '10.244.1.10', httpPort: 8080 }), pod('a', { ip: '10.244.1.9', httpPort: 8080 }), pod('c', { ip: '10.244.2.2', httpPort: 9000 })]);
    expect(slices.map((s) => [s.ports[0].port, ips(s)])).toEqual([[8080, ['10.244.1.9', '10.244.1.10']], [9000, ['10.244.2.2']]]);
  });

  it('one empty slice when nothing backs the Service', () => {
    expect(desiredSlices(service(), [])).toEqual([{ ports: [], endpoints: [] }]);
  });
});

describe('desiredSubsets', () => {
  it('puts ready Pods in addresses, unready in notReadyAddresses, and leaves terminating ones out', () => {
    const subsets = desiredSubsets(service(), [pod('r', { ip: '10.244.1.2', httpPort: 8080 }), pod('u', { ip: '10.244.1.3', httpPort: 8080, ready: false }), pod('t', { ip: '10.244.1.4', httpPort: 8080, deleting: true })]);
    expect(subsets).toEqual([{
      addresses: [{ ip: '10.244.1.2', nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'ns', name: 'r', uid: 'uid-r' } }],
      notReadyAddresses: [{ ip: '10.244.1.3', nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'ns', name: 'u', uid: 'uid-u' } }],
      ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
    }]);
  });

  it('is empty without Pods', () => {
    expect(desiredSubsets(service(), [])).toEqual([]);
  });
});

describe('resolveTargetPort', () => {
  it.each<[unknown, number | undefined]>([[8080, 8080], ['8080', 8080], ['http', 8080], ['metrics', undefined], [undefined, 80]])('targetPort %s → %s', (target, want) => {
    expect(resolveTargetPort(pod('a', { httpPort: 8080 }), { port: 80, targetPort: target as never })).toBe(want);
  });

  it('matches the protocol of a named port', () => {
    expect(resolveTargetPort(pod('a', { httpPort: 8080 }), { port: 80, protocol: 'UDP', targetPort: 'http' as never })).toBeUndefined();
  });
});

describe('planSlices', () => {
  const svc = service();
  const labels = sliceLabels(svc);
  const desired = desiredSlices(svc, [pod('a', { ip: '10.244.1.2', httpPort: 8080 })]);
  const existing = (name: string, extra: object = {}) => ({ metadata: { name, labels }, addressType: 'IPv4', ports: desired[0].ports, endpoints: desired[0].endpoints, ...extra });

  it('creates the slice when there is none', () => {
    expect(planSlices([], desired, labels)).toEqual({ update: [], create: desired, remove: [] });
  });

  it('writes nothing when the slice is up to date, and removes extra slices', () => {
    const plan = planSlices([existing('web-b'), existing('web-a')], desired, labels);
    expect(plan.update).toEqual([]);
    expect(plan.create).toEqual([]);
    expect(plan.remove.map((s) => s.metadata?.name)).toEqual(['web-b']);
  });

  it('updates a slice whose endpoints changed', () => {
    const plan = planSlices([existing('web-a', { endpoints: [] })], desired, labels);
    expect(plan.update.map((u) => u.existing.metadata?.name)).toEqual(['web-a']);
  });
});
