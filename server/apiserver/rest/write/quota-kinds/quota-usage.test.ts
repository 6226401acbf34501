import { describe, expect, it } from 'vitest';
import { exceededMessage } from './quota-check';
import { quotaOf } from './quota-ledger';
import { podMatchesScopes } from './quota-scopes';
import { amountOf, claimUsage, countNames, formatAmount, podConstraintError, podUsage, type QuotaPod } from './quota-usage';

const c = (name: string, requests?: Record<string, string>, limits?: Record<string, string>, restartPolicy?: string) => ({ name, resources: { requests, limits }, restartPolicy });
const pod = (containers: ReturnType<typeof c>[], extra: Partial<NonNullable<QuotaPod['spec']>> = {}, phase?: string): QuotaPod => ({ spec: { containers, ...extra }, status: { phase } });
const obj = (u: Map<string, number>) => Object.fromEntries(u);

describe('what a Pod counts against a quota (kube PodUsageFunc)', () => {
  it.each<[string, QuotaPod, Record<string, number>]>([
    ['no resources: only the pod', pod([c('a')]), { pods: 1, 'count/pods': 1 }],
    ['requests summed over containers, cpu in millicores', pod([c('a', { cpu: '100m', memory: '64Mi' }), c('b', { cpu: '1', memory: '1Gi' })]),
      { pods: 1, 'count/pods': 1, cpu: 1100, 'requests.cpu': 1100, memory: 64 * 2 ** 20 + 2 ** 30, 'requests.memory': 64 * 2 ** 20 + 2 ** 30 }],
    ['an unset request defaults to the limit', pod([c('a', undefined, { memory: '128Mi' })]),
      { pods: 1, 'count/pods': 1, memory: 128 * 2 ** 20, 'requests.memory': 128 * 2 ** 20, 'limits.memory': 128 * 2 ** 20 }],
    ['the largest init container wins over a smaller sum', pod([c('a', { memory: '100Mi' })], { initContainers: [c('i', { memory: '300Mi' })] }),
      { pods: 1, 'count/pods': 1, memory: 300 * 2 ** 20, 'requests.memory': 300 * 2 ** 20 }],
    ['sidecars (restartPolicy Always) add to the sum', pod([c('a', { memory: '100Mi' })], { initContainers: [c('s', { memory: '50Mi' }, undefined, 'Always')] }),
      { pods: 1, 'count/pods': 1, memory: 150 * 2 ** 20, 'requests.memory': 150 * 2 ** 20 }],
    ['overhead is added', pod([c('a', { memory: '100Mi' })], { overhead: { memory: '10Mi' } }),
      { pods: 1, 'count/pods': 1, memory: 110 * 2 ** 20, 'requests.memory': 110 * 2 ** 20 }],
    ['a Succeeded Pod uses nothing', pod([c('a', { memory: '100Mi' })], {}, 'Succeeded'), {}],
    ['a Failed Pod uses nothing', pod([c('a', { memory: '100Mi' })], {}, 'Failed'), {}],
  ])('%s', (_, p, want) => {
    expect(obj(podUsage(p))).toEqual(want);
  });

  it('a hostile Pod body (containers not a list) counts only the pod, without throwing', () => {
    expect(obj(podUsage({ spec: { containers: { a: 1 } as never, initContainers: 'x' as never } }))).toEqual({ pods: 1, 'count/pods': 1 });
    expect(podConstraintError({ spec: { containers: 5 as never } }, ['memory'])).toBeUndefined();
  });

  it('a Pod past its deletion grace period uses nothing, one within it still counts', () => {
    const now = Date.parse('2026-01-01T00:01:00Z');
    const deleting = (grace: number): QuotaPod => ({ metadata: { deletionTimestamp: '2026-01-01T00:00:00Z', deletionGracePeriodSeconds: grace }, spec: { containers: [c('a')] } });
    expect(obj(podUsage(deleting(30), now))).toEqual({});
    expect(obj(podUsage(deleting(120), now))).toEqual({ pods: 1, 'count/pods': 1 });
  });
});

describe('containers must state what a quota limits (kube podEvaluator.Constraints)', () => {
  it.each<[string, QuotaPod, string[], string | undefined]>([
    ['quota on memory, container without memory', pod([c('a'), c('b', { memory: '1Mi' })]), ['memory'], 'must specify memory for: a'],
    ['quota on limits.memory and limits.cpu, requests only', pod([c('a', { memory: '1Mi', cpu: '1' })]), ['limits.memory', 'limits.cpu'], 'must specify limits.cpu for: a; limits.memory for: a'],
    ['limits satisfy requests.* (defaulted)', pod([c('a', undefined, { memory: '1Mi' })]), ['requests.memory', 'limits.memory'], undefined],
    ['pods and count/* need nothing', pod([c('a')]), ['pods', 'count/pods'], undefined],
    ['init containers are checked too', pod([c('a', { cpu: '1' })], { initContainers: [c('init')] }), ['cpu'], 'must specify cpu for: init'],
  ])('%s', (_, p, resources, want) => {
    expect(podConstraintError(p, resources)).toBe(want);
  });
});

describe('the exceeded-quota message (kube admission)', () => {
  const quota = quotaOf({ metadata: { name: 'q' }, spec: { hard: { memory: '500Mi', pods: '10', 'limits.cpu': '1500m' } } });
  it('names only the exceeded resources, sorted, with requested, used and hard', () => {
    const requested = new Map([['pods', 1], ['memory', 300 * 2 ** 20], ['limits.cpu', 1000]]);
    const used = new Map([['pods', 1], ['memory', 250 * 2 ** 20], ['limits.cpu', 1000]]);
    expect(exceededMessage(quota, requested, used)).toBe('exceeded quota: q, requested: limits.cpu=1,memory=300Mi, used: limits.cpu=1,memory=250Mi, limited: limits.cpu=1500m,memory=500Mi');
  });
  it('exactly filling the quota is allowed', () => {
    expect(exceededMessage(quota, new Map([['memory', 250 * 2 ** 20]]), new Map([['memory', 250 * 2 ** 20]]))).toBeUndefined();
  });
  it('resources the quota does not limit are ignored', () => {
    expect(exceededMessage(quota, new Map([['requests.storage', 10 ** 12]]), new Map())).toBeUndefined();
  });
});

describe('quantities and names', () => {
  it.each<[string, unknown, number | undefined]>([
    ['cpu', '100m', 100], ['limits.cpu', '1.5', 1500], ['cpu', 2, 2000], ['memory', '1Gi', 2 ** 30], ['memory', '1G', 1e9],
    ['memory', '1.5Ki', 1536], ['pods', '10', 10], ['memory', 'lots', undefined],
  ])('%s %s → %s', (name, q, want) => { expect(amountOf(name, q)).toBe(want); });

  it.each<[string, number, string]>([
    ['cpu', 1500, '1500m'], ['requests.cpu', 2000, '2'], ['memory', 300 * 2 ** 20, '300Mi'], ['memory', 2 ** 30, '1Gi'], ['memory', 1e9, '1000000000'], ['pods', 3, '3'], ['memory', 0, '0'],
  ])('format %s %d → %s', (name, amount, want) => { expect(formatAmount(name, amount)).toBe(want); });

  it('count names: count/<resource>[.<group>] and the legacy core names', () => {
    expect(countNames('', 'configmaps')).toEqual(['count/configmaps', 'configmaps']);
    expect(countNames('apps', 'deployments')).toEqual(['count/deployments.apps']);
    expect(countNames('kubevirt.io', 'virtualmachines')).toEqual(['count/virtualmachines.kubevirt.io']);
  });
});

describe('scopes', () => {
  const bestEffort = pod([c('a')]);
  const burstable = pod([c('a', { memory: '1Mi' })], { activeDeadlineSeconds: 60 });
  it.each<[string[], QuotaPod, boolean]>([
    [[], bestEffort, true], [['BestEffort'], bestEffort, true], [['BestEffort'], burstable, false], [['NotBestEffort'], burstable, true],
    [['Terminating'], burstable, true], [['Terminating'], bestEffort, false], [['NotTerminating', 'BestEffort'], bestEffort, true],
  ])('%j matches: %#', (scopes, p, want) => { expect(podMatchesScopes(p as never, scopes)).toBe(want); });
});

describe('what a PersistentVolumeClaim counts (kube PVC evaluator)', () => {
  it('the claim, its storage request, and both per StorageClass', () => {
    expect(obj(claimUsage({ spec: { storageClassName: 'fast', resources: { requests: { storage: '1Gi' } } } }))).toEqual({
      persistentvolumeclaims: 1, 'count/persistentvolumeclaims': 1, 'requests.storage': 2 ** 30,
      'fast.storageclass.storage.k8s.io/persistentvolumeclaims': 1, 'fast.storageclass.storage.k8s.io/requests.storage': 2 ** 30,
    });
  });
  it('without a class: no per-class usage', () => {
    expect(obj(claimUsage({ spec: { resources: { requests: { storage: '5G' } } } }))).toEqual({ persistentvolumeclaims: 1, 'count/persistentvolumeclaims': 1, 'requests.storage': 5e9 });
  });
});
