/**
 * Consoles follow the guest: a serial and a VNC WebSocket opened through the API server
 * (aggregation → virt-api → node handler) stay open across a live migration. The serial keeps
 * printing the guest's in-memory counter; the VNC session keeps answering framebuffer update
 * requests, now served by the QEMU on the new node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { KubeClients } from '../server/kube/clients';
import { clientsOf, finalMigration, getVMI, isAlive, migrate, NS, qemuPidOn, startGuest, until } from './migration-helpers';
import { startLifecycleCluster, type LifecycleCluster } from './support/lifecycle-cluster';
import { PLAIN_SUBPROTOCOL } from './support/streams';

let lc: LifecycleCluster;
let k: KubeClients;

beforeAll(async () => {
  lc = await startLifecycleCluster({ nodes: 2 });
  k = clientsOf(lc.cluster);
});
afterAll(async () => { await lc?.stop(); });

const streamPath = (name: string, kind: string) => `/apis/subresources.kubevirt.io/v1/namespaces/${NS}/virtualmachineinstances/${name}/${kind}`;

interface Recorded { ws: WebSocket; bytes: Buffer; closed: boolean }

/** Opens a console socket through the API server, recording from the first byte (the RFB greeting comes at once). */
async function open(name: string, kind: 'console' | 'vnc'): Promise<Recorded> {
  const ws = new WebSocket(new URL(streamPath(name, kind), lc.admin.url.replace(/^http/, 'ws')), [PLAIN_SUBPROTOCOL], {
    headers: { authorization: `Bearer ${lc.admin.token}` }, ca: lc.admin.ca,
  });
  const rec: Recorded = { ws, bytes: Buffer.alloc(0), closed: false };
  ws.on('message', (d: Buffer) => { rec.bytes = Buffer.concat([rec.bytes, d]); });
  ws.on('close', () => { rec.closed = true; });
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  return rec;
}

const counters = (b: Buffer) => [...b.toString('latin1').matchAll(/counter (\d+)/g)].map((m) => Number(m[1]));

/** The client half of an RFB 3.8 handshake (security None); returns the framebuffer size. */
async function vncHandshake(ws: WebSocket, rec: { bytes: Buffer }): Promise<{ width: number; height: number }> {
  let at = 0;
  const take = async (n: number) => {
    await until(`${n} VNC bytes`, () => rec.bytes.length >= at + n, 30_000);
    at += n;
    return rec.bytes.subarray(at - n, at);
  };
  expect((await take(12)).toString('latin1')).toMatch(/^RFB 003\.00[78]\n$/);
  ws.send(Buffer.from('RFB 003.008\n', 'latin1'));
  const types = await take((await take(1))[0]);
  expect([...types]).toContain(1);
  ws.send(Buffer.from([1]));
  expect((await take(4)).readUInt32BE(0)).toBe(0);
  ws.send(Buffer.from([1]));
  const init = await take(24);
  await take(init.readUInt32BE(20));
  ws.send(Buffer.from([2, 0, 0, 1, 0, 0, 0, 0])); // SetEncodings: raw only
  return { width: init.readUInt16BE(0), height: init.readUInt16BE(2) };
}

function fullUpdateRequest(width: number, height: number): Buffer {
  const b = Buffer.alloc(10);
  b[0] = 3;
  b.writeUInt16BE(width, 6);
  b.writeUInt16BE(height, 8);
  return b;
}

describe('consoles follow the guest', () => {
  it('serial and VNC sockets stay open across a migration and keep working', async () => {
    const vmi = await startGuest(k, 'follow');
    const from = vmi.status.nodeName as string;
    const serial = await open('follow', 'console');
    const vnc = await open('follow', 'vnc');
    const vncWs = vnc.ws;
    const { width, height } = await vncHandshake(vncWs, vnc);
    // a full raw frame at the server's pixel format (32 bpp for QEMU's default) is at least width × height × 4 bytes
    const frameBytes = width * height * 4;
    const mark = vnc.bytes.length;
    vncWs.send(fullUpdateRequest(width, height));
    await until('a VNC frame before the move', () => vnc.bytes.length - mark >= frameBytes, 30_000);
    await until('the counter on the serial console', () => counters(serial.bytes).length > 2, 60_000);

    const sourcePid = qemuPidOn(lc.cluster, await getVMI(k, 'follow'), from)!;
    const vmim = await finalMigration(k, await migrate(k, 'follow'));
    expect(vmim.status.phase).toBe('Succeeded');
    expect((await getVMI(k, 'follow')).status.nodeName).not.toBe(from);
    await until('source QEMU gone', () => !isAlive(sourcePid), 30_000);

    const before = Math.max(...counters(serial.bytes));
    await until('the counter carrying on over the same socket', () => Math.max(...counters(serial.bytes)) > before + 2, 60_000)
      .catch((err) => { throw new Error(`${err.message}; serial closed=${serial.closed}, last bytes ${JSON.stringify(serial.bytes.subarray(-200).toString('latin1'))}`); });
    const after = vnc.bytes.length;
    vncWs.send(fullUpdateRequest(width, height));
    await until('a VNC frame from the new node', () => vnc.bytes.length - after >= frameBytes, 30_000);
    expect(serial.closed).toBe(false);
    expect(vnc.closed).toBe(false);
    const seen = counters(serial.bytes);
    expect(seen.every((n, i) => i === 0 || n >= seen[i - 1])).toBe(true); // never restarted
    process.stderr.write(`console follow: ${from} → ${(await getVMI(k, 'follow')).status.nodeName}, counter ${before} → ${Math.max(...seen)}, VNC ${width}x${height}\n`);
    serial.ws.close();
    vncWs.close();
  });
});
