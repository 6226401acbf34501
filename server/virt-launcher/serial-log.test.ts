import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_RECORD_BYTES, parseCriRecord } from '../kube/cri-log';
import { ByteRing, FILE_MAX_BYTES, RING_BYTES, SerialLog } from './serial-log';

describe('ByteRing', () => {
  it('keeps the last `limit` bytes across chunk boundaries', () => {
    const r = new ByteRing(5);
    r.push(Buffer.from('abc'));
    r.push(Buffer.from('defg'));
    expect(r.contents().toString()).toBe('cdefg');
    r.push(Buffer.from('0123456789'));
    expect(r.contents().toString()).toBe('56789');
  });
});

describe('SerialLog (a unix socket standing in for QEMU\'s serial chardev)', () => {
  let dir: string;
  let qemu: net.Server;
  let guest: net.Socket | undefined;
  let typed = '';
  let log: SerialLog;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kv-serial-'));
    typed = '';
    qemu = net.createServer((s) => { guest = s; s.on('data', (d) => { typed += d; }); });
    await new Promise<void>((r) => qemu.listen(join(dir, 'ttyS0.sock'), r));
    log = new SerialLog({ qemuSocket: join(dir, 'ttyS0.sock'), clientSocket: join(dir, 'serial.sock'), logFile: join(dir, 'guest-console-log.log') });
    await log.start();
    await until(() => guest !== undefined);
  });
  afterEach(() => { log.stop(); qemu.close(); rmSync(dir, { recursive: true, force: true }); });

  const until = async (ok: () => boolean) => { for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10)); expect(ok()).toBe(true); };

  it('a client that connects later gets the boot it missed, then the live console; its keys reach the guest', async () => {
    guest!.write('Linux version 6.1\n');
    await until(() => readFileSync(join(dir, 'guest-console-log.log'), 'utf8').endsWith(' stdout F Linux version 6.1\n'));
    const client = net.connect(join(dir, 'serial.sock'));
    let seen = '';
    client.on('data', (d) => { seen += d; });
    await until(() => seen === 'Linux version 6.1\n');
    guest!.write('demo login: ');
    await until(() => seen.endsWith('demo login: '));
    client.write('root\r');
    await until(() => typed === 'root\r');
    client.destroy();
  });

  it('keeps the file bounded: past FILE_MAX_BYTES it holds the last RING_BYTES', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    for (let sent = 0; sent <= FILE_MAX_BYTES; sent += chunk.length) guest!.write(chunk);
    guest!.write('END');
    const file = join(dir, 'guest-console-log.log');
    const lines = () => readFileSync(file).subarray(0, -1).toString('latin1').split('\n');
    await until(() => lines().at(-1)!.endsWith('END'));
    // whole CRI records from the first byte: a time, the stream, the partial flag
    const records = lines().map((l) => parseCriRecord(Buffer.from(l, 'latin1')));
    expect(records.every((r) => r?.stream === 'stdout' && r.partial)).toBe(true);
    expect(records.at(-1)!.content.toString()).toMatch(/^x*END$/);
    expect(Date.now() - Number(records[0]!.ns / 1_000_000n)).toBeLessThan(60_000);
    expect(statSync(file).size).toBeLessThanOrEqual(FILE_MAX_BYTES);
    expect(statSync(file).size).toBeGreaterThanOrEqual(RING_BYTES - MAX_RECORD_BYTES - 64);
  });
});
