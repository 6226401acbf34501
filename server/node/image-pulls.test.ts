import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { TestRegistry } from '../images/testing/oci-registry';
import { ImagePulls } from './image-pulls';

let dir: string;
let reg: TestRegistry;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kv-pulls-'));
  reg = await new TestRegistry().start();
});
afterAll(async () => {
  await reg.stop();
  await rm(dir, { recursive: true, force: true });
});

const pod = (image: string): V1Pod => ({ metadata: { name: 'p', namespace: 'default', annotations: { 'kubevirt-ts.io/container-disks': JSON.stringify([{ image }]) } }, spec: { containers: [] } });
const events: string[] = [];
const pulls = () => new ImagePulls({
  imagesDir: join(dir, 'images'), backoffBaseMs: 300,
  core: { readNamespacedSecret: async () => { throw new Error('no secrets here'); } },
  events: { record: async (_o, _t, reason, message) => { events.push(`${reason}: ${message}`); } },
});
/** check() until it has news: ready, or a wait it asked to be re-checked after (not a pull in flight) */
async function settle(p: ImagePulls, v: V1Pod): Promise<ReturnType<ImagePulls['check']>> {
  for (;;) {
    let requeued!: () => void;
    let sync = true;
    let calledSync = false;
    const next = new Promise<void>((r) => { requeued = r; });
    const r = p.check(v, 'uid-1', () => { if (sync) calledSync = true; requeued(); });
    sync = false;
    if (r.ready || calledSync) return r;
    await next;
  }
}

describe('ImagePulls (the kubelet\'s side of a containerDisk pull)', () => {
  it('is ready at once for a Pod that names no image', () => {
    expect(pulls().check({ metadata: {}, spec: { containers: [] } }, 'u', () => undefined)).toEqual({ ready: true });
  });

  it('ErrImagePull with the registry\'s answer, then ImagePullBackOff until the back-off ends, then pulls once the tag exists', async () => {
    const image = `${reg.host}/containerdisks/later:v1`;
    const p = pulls();
    const v = pod(image);
    expect(await settle(p, v)).toEqual({ ready: false, wait: { reason: 'ErrImagePull', message: `failed to pull image "${image}": manifest unknown: manifest unknown` } });
    const backoff = p.check(v, 'uid-1', () => undefined);
    expect(backoff).toEqual({ ready: false, wait: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${image}": ErrImagePull: failed to pull image "${image}": manifest unknown: manifest unknown` } });
    expect(events).toContain(`Failed: Failed to pull image "${image}": manifest unknown: manifest unknown`);
    await reg.pushContainerDisk('containerdisks/later', 'v1', Buffer.alloc(4096, 1));
    reg.resetCounts();
    expect(p.check(v, 'uid-1', () => undefined).ready).toBe(false); // still backing off: nothing asked
    expect(reg.counts.manifestGet).toBe(0);
    await new Promise((r) => setTimeout(r, 350));
    expect(await settle(p, v)).toEqual({ ready: true });
    expect(reg.counts.manifestGet).toBe(1);
    expect(events.at(-1)).toMatch(new RegExp(`^Pulled: Successfully pulled image "${image.replaceAll('.', '\\.')}" in [0-9.]+s \\(digest sha256:[a-f0-9]{64}\\)$`));
  });

  it('an image already in the store is ready within the sync that asked (settledAtOnce); one from a registry is still pulling', async () => {
    const image = `${reg.host}/containerdisks/present:v1`;
    await reg.pushContainerDisk('containerdisks/present', 'v1', Buffer.alloc(4096, 2));
    const first = pulls();
    expect(await settle(first, pod(image))).toEqual({ ready: true }); // pulled into the store
    const p = pulls(); // a new Pod's pull, the image now on the node
    const v = pod(image);
    expect(p.check(v, 'uid-2', () => undefined).ready).toBe(false);
    await p.settledAtOnce('uid-2');
    expect(p.check(v, 'uid-2', () => undefined)).toEqual({ ready: true });
    expect(events.at(-1)).toBe(`Pulled: Container image "${image}" already present on machine`);

    const remote = `${reg.host}/containerdisks/remote:v1`;
    await reg.pushContainerDisk('containerdisks/remote', 'v1', Buffer.alloc(4096, 3));
    const q = pulls();
    expect(q.check(pod(remote), 'uid-3', () => undefined).ready).toBe(false);
    await q.settledAtOnce('uid-3');
    expect(q.check(pod(remote), 'uid-3', () => undefined)).toEqual({ ready: false }); // the registry has not answered yet: ContainerCreating
    expect(await settle(q, pod(remote))).toEqual({ ready: true });
  });
});
