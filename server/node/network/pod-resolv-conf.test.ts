import { describe, expect, it } from 'vitest';
import { clusterDnsNamespace, renderPodResolvConf } from './pod-resolv-conf';

describe('pod resolv.conf', () => {
  it('points at the cluster DNS with the namespace search list and ndots 5 (dnsPolicy ClusterFirst)', () => {
    expect(renderPodResolvConf('team-a')).toBe('search team-a.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n');
  });

  it('uses the Pod namespace for ClusterFirst (the default) and the host resolvers for dnsPolicy Default', () => {
    expect(clusterDnsNamespace({ metadata: { namespace: 'team-a' } })).toBe('team-a');
    expect(clusterDnsNamespace({ metadata: { namespace: 'team-a' }, spec: { dnsPolicy: 'ClusterFirst' } })).toBe('team-a');
    expect(clusterDnsNamespace({ metadata: { namespace: 'team-a' }, spec: { dnsPolicy: 'Default' } })).toBeUndefined();
  });
});
