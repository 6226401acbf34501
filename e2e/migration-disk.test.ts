/**
 * Disks that move: the guest writes to its emptyDisk (/dev/vdb), is live-migrated, and reads the
 * bytes back from the disk on the new node (page cache dropped, so the read comes from the disk
 * the target QEMU has, not from migrated memory).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import type { KubeClients } from '../server/kube/clients';
import { handlerAccess, openStream } from '../server/virt-handler/testing/stack-helpers';
import { startCluster, type TestCluster } from './harness';
import { clientsOf, finalMigration, getVMI, migrate, NS, until } from './migration-helpers';
import type { KubernetesObject } from '@kubernetes/client-node';
import { Annotation } from '../lib/kubevirt/labels';

const CMDLINE = 'console=tty0 console=ttyS0,115200 quiet panic=-1';
const DATA = `kv-disk-${Date.now()}`;
let cluster: TestCluster;
let k: KubeClients;

beforeAll(async () => {
  cluster = await startCluster({ nodes: 2, console: false });
  k = clientsOf(cluster);
});
afterAll(async () => { await cluster?.stop(); });

/** A root shell on the guest's serial console (on its current node). */
async function shell(name: string): Promise<{ ws: WebSocket; run: (cmd: string, marker: string) => Promise<string> }> {
  const vmi = await getVMI(k, name);
  const node = await k.core.readNode({ name: vmi.status.nodeName });
  const ws = await openStream(handlerAccess(cluster.dataDir, vmi.status.nodeName, node.metadata!.annotations![Annotation.HandlerEndpoint]), NS, name, 'console');
  let text = '';
  ws.on('message', (d: Buffer) => { text += d.toString('latin1'); });
  let pokedAt = 0;
  const waitFor = (re: RegExp, poke?: string) => until(`serial ${re}`, () => {
    if (poke && Date.now() - pokedAt > 1500) { pokedAt = Date.now(); ws.send(poke); }
    return re.exec(text) ?? undefined;
  }, 120_000).catch((err) => { throw new Error(`${err.message}; serial ends ${JSON.stringify(text.slice(-200))}`); });
  const run = async (cmd: string, marker: string) => {
    text = '';
    ws.send(`${cmd}; echo ${marker}-END\r`);
    return (await waitFor(new RegExp(`\\n${marker}-END`)), text);
  };
  // ash asks the terminal for the cursor position (ESC[6n) after its prompt: match the prompt, not the end
  await waitFor(/login: $|~# /, '\r');
  if (!/~# /.test(text)) { ws.send('root\r'); await waitFor(/~# /); }
  return { ws, run };
}

describe('live migration with a written disk', () => {
  it('moves what the guest wrote to its emptyDisk', async () => {
    await k.vmis.create(NS, {
      apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', metadata: { name: 'writer', namespace: NS },
      spec: {
        terminationGracePeriodSeconds: 0,
        domain: { memory: { guest: '128Mi' }, firmware: { kernelBoot: { kernelArgs: CMDLINE } }, devices: { disks: [{ name: 'root', disk: { bus: 'virtio' } }, { name: 'scratch', disk: { bus: 'virtio' } }] } },
        volumes: [{ name: 'root', containerDisk: { image: 'demo' } }, { name: 'scratch', emptyDisk: { capacity: '16Mi' } }],
      },
    } as KubernetesObject);
    const vmi = await until('writer Running', async () => { const v = await getVMI(k, 'writer'); return v?.status?.phase === 'Running' && v; }, 120_000);
    const from = vmi.status.nodeName;
    let sh = await shell('writer');
    await sh.run(`printf '${DATA}' | dd of=/dev/vdb bs=512 conv=fsync 2>/dev/null`, 'W');
    sh.ws.close();

    const vmim = await finalMigration(k, await migrate(k, 'writer'));
    expect(vmim.status.phase, JSON.stringify(vmim.status.migrationState)).toBe('Succeeded');
    expect((await getVMI(k, 'writer')).status.nodeName).not.toBe(from);

    sh = await shell('writer');
    const out = await sh.run(`echo 3 > /proc/sys/vm/drop_caches; echo "read:$(head -c ${DATA.length} /dev/vdb)"`, 'R');
    sh.ws.close();
    expect(out).toContain(`read:${DATA}`);
    const progress = JSON.parse(vmim.metadata.annotations['kubevirt-ts.io/migration-progress']);
    process.stderr.write(`disk migration ${from} → ${vmim.status.migrationState.targetNode}: QEMU total ${progress.totalTimeMs} ms, downtime ${progress.downtimeMs} ms\n`);
  });
});
