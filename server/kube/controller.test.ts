import { describe, expect, it } from 'vitest';
import { Controller, controllerOwnerKey, SyncError } from './controller';
import { waitFor } from './testing/wait-for';

const syncedInformer = { waitForSync: async () => true };

describe('Controller', () => {
  it('retries a failing key with backoff until it succeeds, then forgets its failures', async () => {
    const calls: string[] = [];
    const c = new Controller({
      name: 'test',
      informers: [syncedInformer],
      execute: async (key) => {
        calls.push(key);
        if (calls.length < 3) throw new Error('transient');
      },
    });
    const stop = new AbortController();
    const running = c.run(stop.signal);
    c.enqueue('ns/a');
    await waitFor(() => calls.length === 3);
    expect(c.queue.numRequeues('ns/a')).toBe(0);
    stop.abort();
    await running;
  });

  it('does not retry a SyncError that says requeue=false', async () => {
    let calls = 0;
    const c = new Controller({
      name: 'test',
      informers: [syncedInformer],
      execute: async () => {
        calls++;
        throw new SyncError('FailedCreate', 'bad spec', false);
      },
    });
    const stop = new AbortController();
    const running = c.run(stop.signal);
    c.enqueue('ns/a');
    await waitFor(() => calls === 1);
    c.enqueue('ns/b'); // processed after a; if a had been requeued it would run again first (5 ms)
    await waitFor(() => calls === 2);
    expect(c.queue.numRequeues('ns/a')).toBe(0);
    stop.abort();
    await running;
  });

  it('runs nothing before every informer has synced', async () => {
    let release!: (v: boolean) => void;
    const slow = { waitForSync: () => new Promise<boolean>((r) => (release = r)) };
    let calls = 0;
    const c = new Controller({ name: 'test', informers: [syncedInformer, slow], execute: async () => void calls++ });
    const stop = new AbortController();
    const running = c.run(stop.signal);
    c.enqueue('ns/a');
    await new Promise((r) => setImmediate(r));
    expect(calls).toBe(0);
    release(true);
    await waitFor(() => calls === 1);
    stop.abort();
    await running;
  });
});

describe('controllerOwnerKey', () => {
  it.each([
    ['controller owner of the kind', [{ kind: 'VirtualMachineInstance', name: 'vm1', controller: true }], 'ns/vm1'],
    ['owner of another kind', [{ kind: 'ReplicaSet', name: 'rs', controller: true }], undefined],
    ['non-controller owner', [{ kind: 'VirtualMachineInstance', name: 'vm1' }], undefined],
    ['no owners', undefined, undefined],
  ])('%s', (_l, ownerReferences, key) => {
    const refs = ownerReferences?.map((r) => ({ apiVersion: 'kubevirt.io/v1', uid: 'u', ...r }));
    expect(controllerOwnerKey({ metadata: { namespace: 'ns', name: 'p', ownerReferences: refs } }, 'VirtualMachineInstance')).toBe(key);
  });
});
