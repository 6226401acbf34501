/**
 * Snapshots and restore as a KubeVirt user does them, on a `kv up` cluster with a real guest: a
 * running VM's filesystems freeze and thaw through the freeze subresources; a snapshot of a running
 * VM with a guest agent freezes it (Online, GuestAgent), so even data the guest had not synced is in
 * the copy; what the guest writes afterwards is gone after a restore; a restore onto a running VM waits with
 * KubeVirt's message (targetReadinessPolicy WaitGracePeriod) until the VM is stopped and its VMI gone; deleting the snapshot deletes its content.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGuestShell } from './support/guest-shell';
import { makeKubectl, type Kubectl } from './support/kubectl';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { callAction, isRunning } from './support/lifecycle-table';
import { callRest, until } from './support/rest';
import { NS, readState } from './support/vm-fixtures';

const BOOT_MS = 150_000;
const VMI = (name: string) => `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances/${name}`;
const SUB = (name: string) => `/apis/subresources.kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances/${name}`;
const SNAP = (plural: string, name = '') => `/apis/snapshot.kubevirt.io/v1beta1/namespaces/${NS}/${plural}${name ? `/${name}` : ''}`;
let c: LifecycleCluster;
let kubectl: Kubectl;

beforeAll(async () => {
  c = await startLifecycleCluster({ nodes: 1 });
  kubectl = makeKubectl(c.cluster.kubeconfig);
}, 240_000);
afterAll(async () => {
  kubectl?.dispose();
  await c?.stop();
});

const VM = `apiVersion: kubevirt.io/v1
kind: VirtualMachine
metadata:
  name: snapvm
spec:
  runStrategy: Always
  dataVolumeTemplates:
    - metadata: {name: snapvm-files}
      spec:
        source: {blank: {}}
        storage: {resources: {requests: {storage: 64Mi}}}
  template:
    spec:
      domain:
        memory: {guest: 128Mi}
        devices:
          disks:
            - {name: root, disk: {bus: virtio}}
            - {name: files, serial: files, disk: {bus: virtio}}
      volumes:
        - {name: root, containerDisk: {image: demo}}
        - {name: files, dataVolume: {name: snapvm-files}}
`;

describe('snapshots and restore', () => {
  it('snapshot a running VM, write more, restore onto the stopped VM: the earlier content is back', async () => {
    expect((await kubectl.run('apply', '-f', kubectl.file('vm.yaml', VM))).err).toBe('');
    await until('snapvm Running', async () => isRunning(await readState(c.admin, 'snapvm')), BOOT_MS);
    let shell = await openGuestShell(c.admin, NS, 'snapvm');
    expect(await shell.run('readlink /data')).toBe('/mnt/files');
    await until('AgentConnected', async () => (await callRest(c.admin, 'GET', VMI('snapvm'))).body?.status?.conditions?.some((x: { type: string; status: string }) => x.type === 'AgentConnected' && x.status === 'True'), 60_000);

    // the freeze subresources, as a backup tool calls them
    expect((await callRest(c.admin, 'PUT', `${SUB('snapvm')}/freeze`, { unfreezeTimeout: 'soon' })).status).toBe(400);
    expect((await callRest(c.admin, 'PUT', `${SUB('snapvm')}/freeze`, { unfreezeTimeout: '1m' })).status).toBe(200);
    await until('fsFreezeStatus frozen', async () => (await callRest(c.admin, 'GET', VMI('snapvm'))).body?.status?.fsFreezeStatus === 'frozen', 30_000);
    expect((await callRest(c.admin, 'PUT', `${SUB('snapvm')}/unfreeze`, {})).status).toBe(200);
    await until('thawed', async () => (await callRest(c.admin, 'GET', VMI('snapvm'))).body?.status?.fsFreezeStatus === undefined, 30_000);

    // not synced: only the freeze before the copy flushes it to the disk
    await shell.run('echo before > /data/a.txt');

    const snapshot = { apiVersion: 'snapshot.kubevirt.io/v1beta1', kind: 'VirtualMachineSnapshot', metadata: { name: 'snap-1' }, spec: { source: { apiGroup: 'kubevirt.io', kind: 'VirtualMachine', name: 'snapvm' } } };
    const t0 = Date.now();
    expect((await callRest(c.admin, 'POST', SNAP('virtualmachinesnapshots'), snapshot)).status).toBe(201);
    const done = await until('snapshot ready', async () => {
      const s = (await callRest(c.admin, 'GET', SNAP('virtualmachinesnapshots', 'snap-1'))).body;
      return s.status?.readyToUse === true && s;
    }, 60_000);
    process.stderr.write(`snapshot of a running VM ready in ${Date.now() - t0} ms\n`);
    expect(done.status).toMatchObject({ phase: 'Succeeded', indications: ['Online', 'GuestAgent'], snapshotVolumes: { includedVolumes: ['files'], excludedVolumes: ['root'] } });
    const content = (await callRest(c.admin, 'GET', SNAP('virtualmachinesnapshotcontents', done.status.virtualMachineSnapshotContentName))).body;
    expect(content.spec.volumeBackups.map((b: { volumeName: string }) => b.volumeName)).toEqual(['files']);
    expect((await kubectl.run('get', 'vmsnapshot', 'snap-1')).out).toMatch(/^NAME\s+SOURCEKIND\s+SOURCENAME\s+PHASE\s+READYTOUSE\s+CREATIONTIME\s+ERROR\s+AGE\nsnap-1\s+VirtualMachine\s+snapvm\s+Succeeded\s+true\s/);

    await shell.run('echo after > /data/a.txt; echo new > /data/b.txt; sync');
    shell.close();

    const restore = { apiVersion: 'snapshot.kubevirt.io/v1beta1', kind: 'VirtualMachineRestore', metadata: { name: 'restore-1' }, spec: { target: { apiGroup: 'kubevirt.io', kind: 'VirtualMachine', name: 'snapvm' }, virtualMachineSnapshotName: 'snap-1' } };
    expect((await callRest(c.admin, 'POST', SNAP('virtualmachinerestores'), restore)).status).toBe(201);
    const waiting = await until('restore refused while running', async () => (await callRest(c.admin, 'GET', SNAP('virtualmachinerestores', 'restore-1'))).body.status?.conditions?.find((x: { type: string }) => x.type === 'Ready'), 30_000);
    expect(waiting.message).toBe('Waiting for target VM to be powered off. Please stop the restore target to proceed with restore, or the operation will fail after 5m0s');

    expect((await callAction(c.admin, 'snapvm', 'stop')).status).toBe(202);
    await until('restore complete once the VM stopped', async () => (await callRest(c.admin, 'GET', SNAP('virtualmachinerestores', 'restore-1'))).body.status?.complete === true, BOOT_MS);
    expect((await callAction(c.admin, 'snapvm', 'start')).status).toBe(202);
    await until('snapvm Running again', async () => isRunning(await readState(c.admin, 'snapvm')), BOOT_MS);
    shell = await openGuestShell(c.admin, NS, 'snapvm');
    expect(await shell.run('cat /data/a.txt')).toBe('before');
    expect(await shell.run('[ -e /data/b.txt ] && echo present || echo absent')).toBe('absent');
    shell.close();

    // a restore whose target does not exist makes a new VM on new claims filled from the snapshot
    const toNew = { apiVersion: 'snapshot.kubevirt.io/v1beta1', kind: 'VirtualMachineRestore', metadata: { name: 'restore-new' }, spec: { target: { apiGroup: 'kubevirt.io', kind: 'VirtualMachine', name: 'snapvm-copy' }, virtualMachineSnapshotName: 'snap-1' } };
    expect((await callRest(c.admin, 'POST', SNAP('virtualmachinerestores'), toNew)).status).toBe(201);
    const restored = await until('restore to a new VM complete', async () => {
      const rr = (await callRest(c.admin, 'GET', SNAP('virtualmachinerestores', 'restore-new'))).body;
      return rr.status?.complete === true && rr;
    }, 60_000);
    expect(restored.status.restores).toEqual([expect.objectContaining({ volumeName: 'files', persistentVolumeClaim: `restore-${restored.metadata.uid}-files` })]);
    await until('snapvm-copy Running', async () => isRunning(await readState(c.admin, 'snapvm-copy')), BOOT_MS);
    shell = await openGuestShell(c.admin, NS, 'snapvm-copy');
    expect(await shell.run('cat /data/a.txt')).toBe('before');
    shell.close();
    expect((await callRest(c.admin, 'DELETE', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachines/snapvm-copy`)).status).toBe(200);

    // a VirtualMachineClone of the running VM: snapshot, restore into the target, temporaries removed
    const CLONES = `/apis/clone.kubevirt.io/v1beta1/namespaces/${NS}/virtualmachineclones`;
    const cloneSpec = { apiVersion: 'clone.kubevirt.io/v1beta1', kind: 'VirtualMachineClone', metadata: { name: 'clone-1' }, spec: { source: { apiGroup: 'kubevirt.io', kind: 'VirtualMachine', name: 'snapvm' }, target: { apiGroup: 'kubevirt.io', kind: 'VirtualMachine', name: 'snapvm-clone' }, labelFilters: ['*', '!secret/*'] } };
    expect((await callRest(c.admin, 'POST', CLONES, cloneSpec)).status).toBe(201);
    const cloned = await until('clone Succeeded', async () => {
      const cl = (await callRest(c.admin, 'GET', `${CLONES}/clone-1`)).body;
      return (cl.status?.phase === 'Succeeded' || cl.status?.phase === 'Failed') && cl;
    }, 90_000);
    expect(cloned.status).toMatchObject({ phase: 'Succeeded', targetName: 'snapvm-clone' });
    expect((await kubectl.run('get', 'vmclone', 'clone-1')).out).toMatch(/^NAME\s+PHASE\s+SOURCEVIRTUALMACHINE\s+TARGETVIRTUALMACHINE\s+AGE\nclone-1\s+Succeeded\s+snapvm\s+snapvm-clone\s/);
    await until('snapvm-clone Running', async () => isRunning(await readState(c.admin, 'snapvm-clone')), BOOT_MS);
    // its claims filled and bound, the clone's temporary snapshot goes
    await until('temporary snapshot gone', async () => (await callRest(c.admin, 'GET', SNAP('virtualmachinesnapshots', `tmp-snapshot-${cloned.metadata.uid}`))).status === 404, 30_000);
    shell = await openGuestShell(c.admin, NS, 'snapvm-clone');
    expect(await shell.run('cat /data/a.txt')).toBe('before');
    shell.close();
    expect((await callRest(c.admin, 'DELETE', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachines/snapvm-clone`)).status).toBe(200);

    const dir = join(c.cluster.dataDir, 'storage', 'snapshots', NS, done.status.virtualMachineSnapshotContentName);
    expect(existsSync(dir)).toBe(true);
    expect((await callRest(c.admin, 'DELETE', SNAP('virtualmachinesnapshots', 'snap-1'))).status).toBe(200);
    await until('its content and copies gone', async () => (await callRest(c.admin, 'GET', SNAP('virtualmachinesnapshotcontents', done.status.virtualMachineSnapshotContentName))).status === 404 && !existsSync(dir), 30_000);
  }, 600_000);
});
