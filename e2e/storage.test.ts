/**
 * Storage as a KubeVirt user meets it, on a `kv up` cluster with real guests: the `local` and
 * `shared` StorageClasses; a VM whose dataVolumeTemplates import a qcow2 disk from an HTTP server
 * (served by this test) boots with it; what the guest writes survives stop and start; bad input
 * (a 404 URL, a claim larger than the disk, deleting a claim in use) ends in a clear status.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGuestShell } from './support/guest-shell';
import { startNetnsHttpServer, type NetnsHttpServer } from './support/netns-http-server';
import { makeKubectl, type Kubectl } from './support/kubectl';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { callAction, isRunning } from './support/lifecycle-table';
import { callRest, until } from './support/rest';
import { NS, readState, readVMI } from './support/vm-fixtures';

const BOOT_MS = 150_000;
const MARKER = 'kvts-imported-disk';
let c: LifecycleCluster;
let kubectl: Kubectl;
let http: NetnsHttpServer | undefined;
let base = '';
let dir = '';

/** a 64 MiB disk whose first bytes are MARKER, as qcow2 */
function makeImage(): Buffer {
  const raw = join(dir, 'disk.raw');
  const buf = Buffer.alloc(64 << 20);
  buf.write(MARKER, 0, 'latin1');
  writeFileSync(raw, buf);
  execFileSync('qemu-img', ['convert', '-f', 'raw', '-O', 'qcow2', raw, join(dir, 'disk.qcow2')]);
  return readFileSync(join(dir, 'disk.qcow2'));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kv-storage-'));
  makeImage();
  // importer Pods sit on the pod network, which reaches no host socket: serve from "elsewhere"
  http = await startNetnsHttpServer(dir);
  base = http.base;
  c = await startLifecycleCluster({ nodes: 2 });
  kubectl = makeKubectl(c.cluster.kubeconfig);
}, 240_000);
afterAll(async () => {
  kubectl?.dispose();
  await c?.stop();
  http?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const vmYaml = (name: string, url: string, storageClass = 'local') => `apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: ${name}
spec:
  runStrategy: Always
  dataVolumeTemplates:
    - metadata: {name: ${name}-disk}
      spec:
        source: {http: {url: "${url}"}}
        storage:
          storageClassName: ${storageClass}
          resources: {requests: {storage: 128Mi}}
    - metadata: {name: ${name}-files}
      spec:
        source: {blank: {}}
        storage:
          storageClassName: ${storageClass}
          resources: {requests: {storage: 64Mi}}
  template:
    spec:
      domain:
        memory: {guest: 128Mi}
        devices:
          disks:
            - {name: root, disk: {bus: virtio}}
            - {name: data, serial: imported, disk: {bus: virtio}}
            - {name: files, serial: files, disk: {bus: virtio}}
      volumes:
        - {name: root, containerDisk: {image: demo}}
        - {name: data, dataVolume: {name: ${name}-disk}}
        - {name: files, dataVolume: {name: ${name}-files}}
`;

/** `virtctl` as a user runs it, against the test cluster */
function virtctl(...args: string[]): { out: string; err: string; code: number } {
  try {
    const out = execFileSync(process.execPath, [join(process.cwd(), 'bin', 'virtctl.mjs'), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KUBECONFIG: c.cluster.kubeconfig } });
    return { out, err: '', code: 0 };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; status?: number };
    return { out: e.stdout ?? '', err: e.stderr ?? '', code: e.status ?? 1 };
  }
}

const dv = async (name: string) => (await callRest(c.admin, 'GET', `/apis/cdi.kubevirt.io/v1beta1/namespaces/${NS}/datavolumes/${name}`)).body;
const pvc = async (name: string) => callRest(c.admin, 'GET', `/api/v1/namespaces/${NS}/persistentvolumeclaims/${name}`);

describe('storage', () => {
  it('kv up installs the local (default) and shared StorageClasses', async () => {
    const out = (await kubectl.run('get', 'sc', '-o', 'jsonpath={range .items[*]}{.metadata.name} {.volumeBindingMode} {.metadata.annotations.storageclass\\.kubernetes\\.io/is-default-class}{"\\n"}{end}')).out;
    expect(out).toContain('local WaitForFirstConsumer true');
    expect(out).toContain('shared Immediate');
  });

  it('a VM whose dataVolumeTemplate imports a qcow2 over HTTP boots with the disk, and what the guest writes survives stop and start', async () => {
    const applied = await kubectl.run('apply', '-f', kubectl.file('imported.yaml', vmYaml('imported', `${base}/disk.qcow2`)));
    expect(applied.out, applied.err).toBe('virtualmachine.kubevirt.io/imported created\n');
    await until('DataVolume Succeeded', async () => (await dv('imported-disk'))?.status?.phase === 'Succeeded', BOOT_MS);
    const got = await dv('imported-disk');
    expect(got.status.progress).toBe('100.0%');
    expect(got.metadata.ownerReferences[0]).toMatchObject({ kind: 'VirtualMachine', name: 'imported' });
    const claim = (await pvc('imported-disk')).body;
    expect(claim.status.phase).toBe('Bound');
    expect(claim.status.capacity.storage).toBe('128Mi');
    await until('imported Running', async () => isRunning(await readState(c.admin, 'imported')), BOOT_MS);
    const vmi = await readVMI(c.admin, 'imported');
    expect(vmi.status.volumeStatus.find((s: { name: string }) => s.name === 'data').persistentVolumeClaimInfo).toMatchObject({ claimName: 'imported-disk', accessModes: ['ReadWriteOnce'] });
    expect(vmi.status.conditions.find((x: { type: string }) => x.type === 'LiveMigratable')).toMatchObject({ status: 'False', reason: 'DisksNotLiveMigratable' });

    let shell = await openGuestShell(c.admin, NS, 'imported');
    // the disk with serial `imported` (the demo guest leaves a disk it cannot mount alone)
    const dev = await shell.run('for d in /sys/block/vd*; do [ "$(cat $d/serial)" = imported ] && basename $d; done');
    expect(dev).toMatch(/^vd[a-z]$/);
    expect(await shell.run(`head -c ${MARKER.length} /dev/${dev}`)).toBe(MARKER);
    expect(await shell.run(`cat /sys/block/${dev}/size`)).toBe(String((128 << 20) / 512));
    await shell.run(`printf kvts-written-by-guest | dd of=/dev/${dev} bs=512 seek=1000 conv=notrunc 2>/dev/null; sync`);
    // the blank DataVolume: formatted by the guest on first boot and mounted as /data
    expect(await shell.run('readlink /data')).toBe('/mnt/files');
    await shell.run('echo kept-across-restarts > /data/note.txt; sync');
    shell.close();

    expect((await callAction(c.admin, 'imported', 'stop')).status).toBe(202);
    await until('imported Stopped', async () => (await readState(c.admin, 'imported')).printable === 'Stopped', BOOT_MS);
    expect((await callAction(c.admin, 'imported', 'start')).status).toBe(202);
    await until('imported Running again', async () => isRunning(await readState(c.admin, 'imported')), BOOT_MS);
    shell = await openGuestShell(c.admin, NS, 'imported');
    expect(await shell.run(`dd if=/dev/${dev} bs=512 skip=1000 count=1 2>/dev/null | head -c 21`)).toBe('kvts-written-by-guest');
    expect(await shell.run('cat /data/note.txt')).toBe('kept-across-restarts');
    shell.close();
  }, 600_000);

  it('a blank DataVolume hot-plugged into the running VM appears in the guest, and goes when removed', async () => {
    const hot = {
      apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', metadata: { name: 'hot', namespace: NS },
      spec: { source: { blank: {} }, storage: { storageClassName: 'shared', resources: { requests: { storage: '64Mi' } } } },
    };
    expect((await callRest(c.admin, 'POST', `/apis/cdi.kubevirt.io/v1beta1/namespaces/${NS}/datavolumes`, hot)).status).toBe(201);
    await until('hot DataVolume Succeeded', async () => (await dv('hot'))?.status?.phase === 'Succeeded', 120_000);
    const added = virtctl('addvolume', 'imported', '--volume-name=hot', '--serial=hot');
    expect(added.out, added.err).toBe('Successfully submitted add volume request to VMI imported for volume hot\n');
    const ready = await until('hot volume Ready', async () => {
      const s = (await readVMI(c.admin, 'imported')).status.volumeStatus?.find((v: { name: string }) => v.name === 'hot');
      return s?.phase === 'Ready' && s;
    }, 120_000);
    expect(ready).toMatchObject({ target: 'sda', reason: 'VolumeReady', hotplugVolume: { attachPodName: 'hp-volume-imported-hot' } });
    const shell = await openGuestShell(c.admin, NS, 'imported');
    await until('the guest mounted the hot-plugged disk', async () => (await shell.run('grep -c " /mnt/hot " /proc/mounts')) === '1', 60_000);
    await shell.run('echo hot > /mnt/hot/x; sync');
    // a disk that was there at boot is not the guest's to lose this way
    const refused = await callRest(c.admin, 'PUT', `/apis/subresources.kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances/imported/removevolume`, { name: 'data' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('Unable to remove volume [data] because it is not hotpluggable');
    const removed = virtctl('removevolume', 'imported', '--volume-name=hot');
    expect(removed.out, removed.err).toBe('Successfully submitted remove volume request to VMI imported for volume hot\n');
    await until('the guest lost the disk', async () => (await shell.run('for d in /sys/block/sd*; do [ -e "$d" ] && echo $d; done | wc -l')) === '0', 60_000);
    shell.close();
    await until('volume status and attachment pod gone', async () => {
      const s = (await readVMI(c.admin, 'imported')).status.volumeStatus?.find((v: { name: string }) => v.name === 'hot');
      const pod = await callRest(c.admin, 'GET', `/api/v1/namespaces/${NS}/pods/hp-volume-imported-hot`);
      return !s && pod.status === 404;
    }, 60_000);
  }, 400_000);

  it('a VM on the shared class is live-migratable and migrates with its disk left in place, files intact', async () => {
    const yaml = vmYaml('moving', `${base}/disk.qcow2`, 'shared');
    expect((await kubectl.run('apply', '-f', kubectl.file('moving.yaml', yaml))).err).toBe('');
    await until('moving Running', async () => isRunning(await readState(c.admin, 'moving')), BOOT_MS * 2);
    const before = await readVMI(c.admin, 'moving');
    expect(before.status.volumeStatus.find((v: { name: string }) => v.name === 'files').persistentVolumeClaimInfo.accessModes).toEqual(['ReadWriteMany']);
    expect(before.status.conditions.find((x: { type: string }) => x.type === 'LiveMigratable')).toMatchObject({ status: 'True' });
    let shell = await openGuestShell(c.admin, NS, 'moving');
    expect(await shell.run('readlink /data')).toBe('/mnt/files');
    await shell.run('echo written-before-migration > /data/moved.txt; sync');
    shell.close();
    const mig = {
      apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstanceMigration',
      metadata: { name: 'move-shared', namespace: NS }, spec: { vmiName: 'moving' },
    };
    expect((await callRest(c.admin, 'POST', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstancemigrations`, mig)).status).toBe(201);
    const done = await until('migration final', async () => {
      const m = (await callRest(c.admin, 'GET', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstancemigrations/move-shared`)).body;
      return ['Succeeded', 'Failed'].includes(m?.status?.phase) && m;
    }, 180_000);
    expect(done.status.phase).toBe('Succeeded');
    const after = await readVMI(c.admin, 'moving');
    expect(after.status.nodeName).not.toBe(before.status.nodeName);
    shell = await openGuestShell(c.admin, NS, 'moving');
    expect(await shell.run('cat /data/moved.txt')).toBe('written-before-migration');
    shell.close();
    expect((await callAction(c.admin, 'moving', 'stop')).status).toBe(202);
  }, 600_000);

  it('kv image-upload fills a DataVolume a VM then boots with; an image too big for its claim fails with the reason', async () => {
    const kv = (...args: string[]) => {
      const r = spawnSync(process.execPath, [join(process.cwd(), 'bin', 'kv.mjs'), 'image-upload', ...args], { encoding: 'utf8', env: { ...process.env, KUBECONFIG: c.cluster.kubeconfig } });
      return { out: r.stdout, err: r.stderr, code: r.status ?? 1 };
    };
    const up = kv('dv', 'uploaded', '--size=128Mi', `--image-path=${join(dir, 'disk.qcow2')}`, '--storage-class=shared');
    expect(up.code, up.err).toBe(0);
    expect(up.out).toContain('DataVolume default/uploaded created');
    expect(up.out).toContain('Uploading data completed successfully, waiting for processing to complete');
    expect(up.out).toContain('Uploading disk.qcow2 completed successfully');
    expect(up.err).toMatch(/100\.00%/);
    expect((await dv('uploaded')).status.phase).toBe('Succeeded');
    const vm = vmYaml('booted', `${base}/disk.qcow2`, 'shared')
      .replace(/ {2}dataVolumeTemplates:[\s\S]*? {2}template:/, '  template:')
      .replace('{name: data, dataVolume: {name: booted-disk}}', '{name: data, dataVolume: {name: uploaded}}')
      .replace(/\n.*name: files.*/g, '');
    expect((await kubectl.run('apply', '-f', kubectl.file('booted.yaml', vm))).err).toBe('');
    await until('booted Running', async () => isRunning(await readState(c.admin, 'booted')), BOOT_MS);
    const shell = await openGuestShell(c.admin, NS, 'booted');
    const devName = await shell.run('for d in /sys/block/vd*; do [ "$(cat $d/serial)" = imported ] && basename $d; done');
    expect(await shell.run(`head -c ${MARKER.length} /dev/${devName}`)).toBe(MARKER);
    shell.close();
    expect((await callAction(c.admin, 'booted', 'stop')).status).toBe(202);

    // an image whose disk is larger than the claim it is sent to
    execFileSync('qemu-img', ['create', '-q', '-f', 'qcow2', join(dir, 'big.qcow2'), '1G']);
    const bad = kv('dv', 'garbage', '--size=64Mi', `--image-path=${join(dir, 'big.qcow2')}`, '--storage-class=shared', '--wait-secs=60');
    expect(bad.code, bad.out).not.toBe(0);
    expect(bad.err).toContain('Virtual image size 1073741824 is larger than the reported available storage 67108864. A larger PVC is required.');
    await until('garbage DataVolume Failed', async () => (await dv('garbage'))?.status?.phase === 'Failed', 60_000);
    await until('its claim gone', async () => (await pvc('garbage')).status === 404, 30_000);
  }, 400_000);

  it('a DataVolume whose URL answers 404 fails with the status in its message, and leaves no claim behind', async () => {
    const body = {
      apiVersion: 'cdi.kubevirt.io/v1beta1', kind: 'DataVolume', metadata: { name: 'missing', namespace: NS },
      spec: { source: { http: { url: `${base}/nothing.qcow2` } }, storage: { resources: { requests: { storage: '64Mi' } } } },
    };
    expect((await callRest(c.admin, 'POST', `/apis/cdi.kubevirt.io/v1beta1/namespaces/${NS}/datavolumes`, body)).status).toBe(201);
    await until('DataVolume Failed', async () => (await dv('missing'))?.status?.phase === 'Failed', 120_000);
    const failed = await dv('missing');
    expect(failed.status.conditions.find((x: { type: string }) => x.type === 'Running').message).toContain('404');
    await until('its claim gone', async () => (await pvc('missing')).status === 404, 30_000);
    const printed = (await kubectl.run('get', 'dv', 'missing')).out;
    expect(printed).toMatch(/^NAME\s+PHASE\s+PROGRESS\s+RESTARTS\s+AGE\nmissing\s+Failed\s/);
  }, 200_000);

  it('a claim larger than the disk stays Pending with ProvisioningFailed saying how much space there is', async () => {
    const body = {
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'huge', namespace: NS },
      spec: { accessModes: ['ReadWriteMany'], storageClassName: 'shared', resources: { requests: { storage: '100Ei' } } },
    };
    expect((await callRest(c.admin, 'POST', `/api/v1/namespaces/${NS}/persistentvolumeclaims`, body)).status).toBe(201);
    const event = await until('ProvisioningFailed event', async () => {
      const evs = (await callRest(c.admin, 'GET', `/api/v1/namespaces/${NS}/events?fieldSelector=involvedObject.name%3Dhuge`)).body.items;
      return evs.find((e: { reason: string }) => e.reason === 'ProvisioningFailed');
    }, 30_000);
    expect(event.message).toMatch(/not enough free space on the shared storage: requested 100Ei, available \d/);
    expect((await pvc('huge')).body.status.phase).toBe('Pending');
  });

  it('deleting a claim a running VM uses waits until the VM stops (kubernetes.io/pvc-protection)', async () => {
    expect((await callRest(c.admin, 'DELETE', `/api/v1/namespaces/${NS}/persistentvolumeclaims/imported-disk`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 3000));
    const held = (await pvc('imported-disk')).body;
    expect(held.metadata.deletionTimestamp).toBeTruthy();
    expect(held.metadata.finalizers).toContain('kubernetes.io/pvc-protection');
    expect(isRunning(await readState(c.admin, 'imported'))).toBe(true);
    expect((await callAction(c.admin, 'imported', 'stop')).status).toBe(202);
    await until('the claim gone once the VM stopped', async () => (await pvc('imported-disk')).status === 404, BOOT_MS);
    // reclaim policy Delete: its volume goes too, files and all
    await until('its volume deleted', async () => {
      const pvs = (await callRest(c.admin, 'GET', '/api/v1/persistentvolumes')).body.items as { spec: { claimRef?: { name: string } } }[];
      return !pvs.some((p) => p.spec.claimRef?.name === 'imported-disk');
    }, 30_000);
  }, 200_000);
});
