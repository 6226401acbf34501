/**
 * containerDisks from an OCI registry on a `kv up` cluster: a demo VMI whose second containerDisk
 * names `127.0.0.1:<port>/containerdisks/demo-disk:v1` (served by this test's registry) boots, and
 * the guest reads the pulled disk; a tag the registry does not have leaves the VMI saying why, until
 * it is pushed.
 * Run with KV_POD_NETWORK=0 (the kubelet, which pulls, reaches the registry on the host's loopback).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestRegistry } from '../server/images/testing/oci-registry';
import { openGuestShell } from './support/guest-shell';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { callRest, until, VMIS } from './support/rest';
import { NS, readVMI } from './support/vm-fixtures';

const BOOT_MS = 150_000;
const MARKER = 'kvts-pulled-containerdisk';
let c: LifecycleCluster;
let reg: TestRegistry;
let dir = '';

function markedQcow2(): Buffer {
  const raw = join(dir, 'disk.raw');
  const buf = Buffer.alloc(16 << 20);
  buf.write(MARKER, 0, 'latin1');
  writeFileSync(raw, buf);
  execFileSync('qemu-img', ['convert', '-f', 'raw', '-O', 'qcow2', raw, join(dir, 'disk.qcow2')]);
  return readFileSync(join(dir, 'disk.qcow2'));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kv-registry-e2e-'));
  reg = await new TestRegistry().start();
  await reg.pushContainerDisk('containerdisks/demo-disk', 'v1', markedQcow2(), { index: true });
  c = await startLifecycleCluster({ nodes: 1 });
}, 240_000);
afterAll(async () => {
  await c?.stop();
  await reg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const vmi = (name: string, image: string) => ({
  apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name, namespace: NS },
  spec: {
    domain: { memory: { guest: '256Mi' }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }, { name: 'pulled', serial: 'pulled', disk: { bus: 'virtio' } }] } },
    volumes: [{ name: 'root', containerDisk: { image: 'demo' } }, { name: 'pulled', containerDisk: { image } }],
  },
});
const synchronized = async (name: string) => (await readVMI(c.admin, name))?.status?.conditions?.find((x: { type: string }) => x.type === 'Synchronized');

describe('containerDisks from a registry', () => {
  it('a VMI whose containerDisk is in the registry boots, and the guest reads the pulled disk', async () => {
    const image = `${reg.host}/containerdisks/demo-disk:v1`;
    const created = await callRest(c.admin, 'POST', VMIS(NS), vmi('pulled', image));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await until('pulled Running', async () => (await readVMI(c.admin, 'pulled'))?.status?.phase === 'Running', BOOT_MS);
    expect(reg.counts.blobGet).toBe(1);
    const shell = await openGuestShell(c.admin, NS, 'pulled');
    const dev = await shell.run('for d in /sys/block/vd*; do [ "$(cat $d/serial)" = pulled ] && basename $d; done');
    expect(dev).toMatch(/^vd[a-z]$/);
    expect(await shell.run(`head -c ${MARKER.length} /dev/${dev}`)).toBe(MARKER);
    shell.close();
    const events = (await callRest(c.admin, 'GET', `/api/v1/namespaces/${NS}/events`)).body.items as { reason: string; message: string }[];
    expect(events.some((e) => e.reason === 'Pulled' && e.message.startsWith(`Successfully pulled image "${image}"`))).toBe(true);
  }, 240_000);

  it('a tag the registry does not have: the VMI waits with the registry\'s answer', async () => {
    const image = `${reg.host}/containerdisks/demo-disk:v9`;
    expect((await callRest(c.admin, 'POST', VMIS(NS), vmi('missing', image))).status).toBe(201);
    const cond = await until('Synchronized=False', async () => {
      const s = await synchronized('missing');
      return s?.reason === 'ErrImagePull' || s?.reason === 'ImagePullBackOff' ? s : undefined;
    }, 60_000);
    expect(cond.status).toBe('False');
    expect(cond.message).toContain(`failed to pull image "${image}": manifest unknown: manifest unknown`);
    expect((await readVMI(c.admin, 'missing')).status.phase).toBe('Scheduling');
    // pushed later: the kubelet's next try (back-off from 10 s) pulls it and the VMI starts, its pull error gone
    await reg.pushContainerDisk('containerdisks/demo-disk', 'v9', markedQcow2());
    await until('missing Running', async () => (await readVMI(c.admin, 'missing'))?.status?.phase === 'Running', BOOT_MS);
    expect(await synchronized('missing')).toBeUndefined();
  }, 240_000);
});
