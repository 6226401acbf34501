/**
 * What a VMI names but does not hold reaches the guest, as in KubeVirt (conformance: "should take
 * user-data from k8s secret", accessCredentials "using nocloud"): cloud-init user-data from a
 * Secret runs; a configMap, a secret, a serviceAccount and a downwardAPI volume are ISO disks the
 * guest mounts (their files, the SA's token that the API server accepts, the VMI's labels); an SSH
 * key from a Secret with propagationMethod noCloud lands in root's authorized_keys; after a live
 * migration the guest reads the same files from the target's disks (conformance test_id:1853). A VMI
 * naming a ConfigMap that does not exist does not start and says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGuestShell } from './support/guest-shell';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { callRest, until } from './support/rest';
import { NS, readVMI } from './support/vm-fixtures';

const BOOT_MS = 120_000;
const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKvtest0000000000000000000000000000000000 tester@kubevirt-ts';
let c: LifecycleCluster;

const post = async (path: string, body: object) => {
  const r = await callRest(c.admin, 'POST', path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
};
const secret = (name: string, stringData: Record<string, string>) => post(`/api/v1/namespaces/${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData });

const disk = (name: string, serial?: string) => ({ name, disk: { bus: 'virtio' }, ...(serial ? { serial } : {}) });
function vmi(name: string, extraVolumes: object[], extraDisks: object[], spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name, namespace: NS, labels: { app: 'cfgtest', tier: 'web' } },
    spec: {
      terminationGracePeriodSeconds: 0,
      domain: { memory: { guest: '128Mi' }, devices: { disks: [disk('root'), ...extraDisks] } },
      volumes: [{ name: 'root', containerDisk: { image: 'demo' } }, ...extraVolumes],
      ...spec,
    },
  };
}

beforeAll(async () => {
  c = await startLifecycleCluster({ nodes: 2 });
}, 240_000);
afterAll(async () => {
  await c?.stop();
});

describe('Secrets, ConfigMaps, ServiceAccounts and the downward API in a guest', () => {
  it('user-data from a Secret runs, config volumes are disks with their files, a noCloud SSH key is installed', async () => {
    await secret('ud', { userdata: '#!/bin/sh\necho from-secret > /run/ud-marker\n' });
    await secret('creds', { password: 's3cret' });
    await secret('keys', { key1: KEY });
    await post(`/api/v1/namespaces/${NS}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app' }, data: { 'app.conf': 'x=1\n' } });
    await post(`/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances`, vmi('cfgvm', [
      { name: 'ci', cloudInitNoCloud: { secretRef: { name: 'ud' } } },
      { name: 'cm', configMap: { name: 'app' } },
      { name: 'sec', secret: { secretName: 'creds' } },
      { name: 'sa', serviceAccount: { serviceAccountName: 'default' } },
      { name: 'dw', downwardAPI: { fields: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
    ], [disk('ci'), disk('cm', 'CM1'), disk('sec', 'SEC1'), disk('sa', 'SA1'), disk('dw', 'DW1')], {
      accessCredentials: [{ sshPublicKey: { source: { secret: { secretName: 'keys' } }, propagationMethod: { noCloud: {} } } }],
    }));
    await until('cfgvm Running', async () => (await readVMI(c.admin, 'cfgvm'))?.status?.phase === 'Running', BOOT_MS);
    const shell = await openGuestShell(c.admin, NS, 'cfgvm');
    try {
      await until('the user-data from the Secret ran', async () => (await shell.run('cat /run/ud-marker 2>/dev/null')) === 'from-secret', 60_000);
      // mount each config disk by its serial, as KubeVirt's tests do
      await shell.run('for d in /sys/block/vd*; do s=$(cat $d/serial 2>/dev/null); [ -n "$s" ] && mkdir -p /mnt/$s && mount -t iso9660 -o ro /dev/${d##*/} /mnt/$s; done; true');
      expect(await shell.run('cat /mnt/CM1/app.conf')).toBe('x=1');
      expect(await shell.run('cat /mnt/SEC1/password')).toBe('s3cret');
      expect(await shell.run('cat /mnt/SA1/namespace')).toBe(NS);
      expect(await shell.run('head -n 1 /mnt/SA1/ca.crt')).toBe('-----BEGIN CERTIFICATE-----');
      // the kubelet's format: key="value" lines sorted by key (the VMI's own labels and those KubeVirt adds)
      const labels = (await shell.run('cat /mnt/DW1/labels')).split('\n');
      expect(labels).toEqual(expect.arrayContaining(['app="cfgtest"', 'tier="web"']));
      expect(labels).toEqual([...labels].sort());
      const token = await shell.run('cat /mnt/SA1/token');
      const review = await callRest(c.admin, 'POST', '/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } });
      expect(review.body.status).toMatchObject({ authenticated: true, user: { username: `system:serviceaccount:${NS}:default` } });
      expect(await shell.run('cat /root/.ssh/authorized_keys')).toContain(KEY);
    } finally {
      shell.close();
    }

    // a live migration: the target launcher writes the same disks from what its virt-handler read
    const before = (await readVMI(c.admin, 'cfgvm')).status.nodeName;
    await post(`/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstancemigrations`, { apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstanceMigration', metadata: { name: 'cfg-mig' }, spec: { vmiName: 'cfgvm' } });
    await until('migration Succeeded', async () => {
      const phase = (await callRest(c.admin, 'GET', `/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstancemigrations/cfg-mig`)).body?.status?.phase;
      if (phase === 'Failed') throw new Error('migration failed');
      return phase === 'Succeeded';
    }, BOOT_MS);
    expect((await readVMI(c.admin, 'cfgvm')).status.nodeName).not.toBe(before);
    const moved = await openGuestShell(c.admin, NS, 'cfgvm');
    try {
      // dropped caches: the files are read again, from the target's disks
      expect(await moved.run('sync; echo 3 > /proc/sys/vm/drop_caches; cat /mnt/CM1/app.conf /mnt/SEC1/password')).toBe('x=1\ns3cret');
    } finally {
      moved.close();
    }
  }, 300_000);

  it('a VMI naming a ConfigMap that does not exist does not start, and says which', async () => {
    await post(`/apis/kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances`, vmi('nocm', [{ name: 'cm', configMap: { name: 'nope' } }], [disk('cm')]));
    const cond = await until('Synchronized False', async () => (await readVMI(c.admin, 'nocm'))?.status?.conditions?.find((x: { type: string; status: string }) => x.type === 'Synchronized' && x.status === 'False'), 60_000);
    expect(cond.message).toBe('configmap "nope" of volume cm not found');
    expect((await readVMI(c.admin, 'nocm')).status.phase).not.toBe('Running');
  }, 120_000);
});
