import { describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openGuestPort, parsePortForward } from './port-forward';

describe('port-forward route', () => {
  it.each([
    ['portforward/22', { port: 22, protocol: 'tcp' }],
    ['portforward/8080/tcp', { port: 8080, protocol: 'tcp' }],
    ['portforward/53/udp', { port: 53, protocol: 'udp' }],
    ['portforward/0', undefined],
    ['portforward/65536', undefined],
    ['portforward/80/sctp', undefined],
    ['vnc', undefined],
  ])('%s', (sub, want) => {
    expect(parsePortForward(sub)).toEqual(want);
  });
});

describe('openGuestPort (the launcher socket protocol)', () => {
  const listen = (onLine: (line: string, reply: (s: string) => void) => void): Promise<{ path: string; server: Server }> => {
    const path = join(mkdtempSync(join(tmpdir(), 'pf-')), 'portforward.sock');
    const server = createServer((c) => c.once('data', (d) => onLine(d.toString(), (s) => c.write(s))));
    return new Promise((resolve) => server.listen(path, () => resolve({ path, server })));
  };

  it('sends "tcp <port>" and hands back the stream after OK, keeping bytes that followed it', async () => {
    const { path, server } = await listen((line, reply) => reply(line === 'tcp 22\n' ? 'OK\nSSH-2.0-guest\r\n' : 'ERR bad\n'));
    const s = await openGuestPort(path, 22);
    const first = await new Promise<string>((resolve) => { s.once('data', (d) => resolve(d.toString())); s.resume(); });
    expect(first).toBe('SSH-2.0-guest\r\n');
    s.destroy();
    server.close();
  });

  it('an ERR line is a 503-class error with the launcher\'s reason', async () => {
    const { path, server } = await listen((_l, reply) => reply('ERR connect ECONNREFUSED 10.0.2.2:81\n'));
    await expect(openGuestPort(path, 81)).rejects.toMatchObject({ code: 502, message: 'cannot connect to port 81 of the guest: connect ECONNREFUSED 10.0.2.2:81' });
    server.close();
  });

  it('a launcher that is gone is a 503', async () => {
    await expect(openGuestPort('/nonexistent/portforward.sock', 80)).rejects.toMatchObject({ code: 503 });
  });
});
