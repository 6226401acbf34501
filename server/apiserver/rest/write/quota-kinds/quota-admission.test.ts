/**
 * ResourceQuota admission against a real (in-memory) store: a create in a namespace covered by
 * several quotas lists the namespace's Pods once, and each quota's verdict is still its own.
 */
import { describe, expect, it } from 'vitest';
import { objectKey, objectPrefix } from '../../codec/object-codec';
import { createMemoryStore } from '../../../store/memory-store';
import type { Store } from '../../../store/types';
import { admitQuotaCreate } from './quota-admission';
import { RESOURCE_QUOTAS } from './quota-ledger';

const PODS = { group: '', resource: 'pods', namespaced: true };
const pod = (name: string, memory: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' }, spec: { containers: [{ name: 'c', resources: { requests: { memory }, limits: { memory } } }] } });
const quota = (name: string, hard: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: 'ns' }, spec: { hard } });

/** the store, and how often the namespace's Pods were listed through it */
async function storeWith(quotas: ReturnType<typeof quota>[], pods: ReturnType<typeof pod>[]): Promise<{ store: Store; podLists: () => number }> {
  const inner = createMemoryStore();
  for (const q of quotas) await inner.create(objectKey(RESOURCE_QUOTAS, 'ns', q.metadata.name), JSON.stringify(q));
  for (const p of pods) await inner.create(objectKey(PODS, 'ns', p.metadata.name), JSON.stringify(p));
  let lists = 0;
  const podPrefix = objectPrefix(PODS, 'ns');
  const store: Store = Object.assign(Object.create(inner) as Store, {
    list: (prefix: string, opts?: Parameters<Store['list']>[1]) => { if (prefix === podPrefix) lists++; return inner.list(prefix, opts); },
  });
  return { store, podLists: () => lists };
}

const create = (store: Store, object: object) => admitQuotaCreate(store, { group: '', resource: 'pods', namespace: 'ns', object: object as Record<string, unknown>, dryRun: true });

describe('quota admission lists the namespace once per create', () => {
  const three = [quota('mem', { memory: '1Gi' }), quota('pods', { pods: '5' }), quota('limits', { 'limits.memory': '1Gi' })];

  it('three covering quotas, one Pod list', async () => {
    const { store, podLists } = await storeWith(three, [pod('a', '300Mi'), pod('b', '300Mi')]);
    create(store, pod('c', '300Mi'));
    expect(podLists()).toBe(1);
  });

  it('the shared list still gives each quota its own usage: the one that is full refuses', async () => {
    const { store, podLists } = await storeWith([quota('pods', { pods: '2' }), quota('mem', { memory: '1Gi' })], [pod('a', '300Mi'), pod('b', '300Mi')]);
    expect(() => create(store, pod('c', '300Mi'))).toThrow('pods "c" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=2, limited: pods=2');
    expect(podLists()).toBe(1);
    const { store: roomy } = await storeWith([quota('pods', { pods: '3' }), quota('mem', { memory: '900Mi' })], [pod('a', '300Mi'), pod('b', '300Mi')]);
    expect(() => create(roomy, pod('c', '400Mi'))).toThrow('exceeded quota: mem, requested: memory=400Mi, used: memory=600Mi, limited: memory=900Mi');
  });
});
