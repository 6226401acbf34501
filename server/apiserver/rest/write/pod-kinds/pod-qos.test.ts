import { describe, expect, it } from 'vitest';
import { podQOSClass } from './pod-qos';

const pod = (...resources: object[]) => ({ spec: { containers: resources.map((r) => ({ resources: r })) } });

describe("a Pod's QoS class, as kube computes it", () => {
  it.each([
    ['no requests or limits', pod({}), 'BestEffort'],
    ['zero quantities count as none', pod({ requests: { cpu: '0', memory: '0' } }), 'BestEffort'],
    ['requests below limits', pod({ requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '1', memory: '64Mi' } }), 'Burstable'],
    ['requests only', pod({ requests: { memory: '64Mi' } }), 'Burstable'],
    ['equal requests and limits (different spellings of one amount)', pod({ requests: { cpu: '1', memory: '64M' }, limits: { cpu: '1000m', memory: '64000k' } }), 'Guaranteed'],
    ['limits only (requests default to them)', pod({ limits: { cpu: '1', memory: '128Mi' } }), 'Guaranteed'],
    ['a limit on memory only', pod({ limits: { memory: '128Mi' } }), 'Burstable'],
    ['one guaranteed container and one without limits', pod({ limits: { cpu: '1', memory: '1Gi' } }, {}), 'Burstable'],
    ['two guaranteed containers (the launcher and its log container)', pod({ limits: { cpu: '1', memory: '1Gi' } }, { requests: { cpu: '5m', memory: '35M' }, limits: { cpu: '5m', memory: '35M' } }), 'Guaranteed'],
    ['other resources do not count', pod({ requests: { 'ephemeral-storage': '1Gi' } }), 'BestEffort'],
  ])('%s → %s', (_what, p, want) => {
    expect(podQOSClass(p)).toBe(want);
  });

  it('init containers count too', () => {
    expect(podQOSClass({ spec: { containers: [{ resources: { limits: { cpu: '1', memory: '1Gi' } } }], initContainers: [{ resources: { requests: { cpu: '1' } } }] } })).toBe('Burstable');
  });
});
