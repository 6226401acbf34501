import type { IncomingMessage } from 'node:http';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataFrame, FLAG_FIN, FrameReader, synStreamFrame, type SpdyFrame } from '../../http/spdy/frames';
import { HeaderCompressor } from '../../http/spdy/header-block';
import { dialErrorMessage, portForwardSession, portForwardUpgradeKind } from './port-forward';

let echo: Server;
let echoPort: number;
let closedPort: number;

beforeAll(async () => {
  echo = createServer((s) => s.on('data', (b) => s.write(`echo:${b}`)).on('end', () => s.end()));
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  echoPort = (echo.address() as { port: number }).port;
  const spare = createServer();
  await new Promise<void>((r) => spare.listen(0, '127.0.0.1', r));
  closedPort = (spare.address() as { port: number }).port;
  await new Promise((r) => spare.close(r));
});
afterAll(() => new Promise((r) => echo.close(r)));

const POD = { host: '127.0.0.1', podId: 'uid-1', namespaceName: 'host' };

/** kubectl's side of one forwarded connection: an error stream, then a data stream, one requestID */
async function connection(port: number) {
  const reader = new FrameReader();
  const frames: SpdyFrame[] = [];
  const session = portForwardSession({ write: async (b) => { frames.push(...reader.push(b)); }, close: () => undefined }, POD);
  const deflate = new HeaderCompressor();
  session.receive(synStreamFrame(1, await deflate.compress({ streamType: 'error', port: String(port), requestID: '0' })));
  session.receive(dataFrame(1, Buffer.alloc(0), true)); // kubectl closes its half of the error stream at once
  session.receive(synStreamFrame(3, await deflate.compress({ streamType: 'data', port: String(port), requestID: '0' })));
  const data = (id: number) => frames.filter((f): f is Extract<SpdyFrame, { kind: 'data' }> => f.kind === 'data' && f.streamId === id);
  const text = (id: number) => Buffer.concat(data(id).map((f) => f.data)).toString();
  const finished = (id: number) => data(id).some((f) => (f.flags & FLAG_FIN) !== 0);
  const until = async (cond: () => boolean) => { for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10)); };
  return { session, text, finished, until };
}

describe('port-forward over a SPDY session', () => {
  it('pairs the streams, dials the port and copies both ways; the error stream closes empty', async () => {
    const c = await connection(echoPort);
    c.session.receive(dataFrame(3, Buffer.from('hi')));
    await c.until(() => c.text(3) === 'echo:hi');
    expect(c.text(3)).toBe('echo:hi');
    expect(c.finished(1) && c.text(1) === '').toBe(true);
    c.session.receive(dataFrame(3, Buffer.alloc(0), true)); // the client hangs up: the Pod's side ends too
    await c.until(() => c.finished(3));
    expect(c.finished(3)).toBe(true);
    c.session.close();
  });

  it("a closed port: kube's message on the error stream, both streams finished", async () => {
    const c = await connection(closedPort);
    await c.until(() => c.finished(1) && c.finished(3));
    expect(c.text(1)).toBe(`error forwarding port ${closedPort} to pod uid-1, uid : failed to connect to localhost:${closedPort} inside namespace "host", IPv4: dial tcp4 127.0.0.1:${closedPort}: connect: connection refused`);
    expect(c.text(3)).toBe('');
    c.session.close();
  });

  it('an unusable port header is refused on the error stream', async () => {
    const c = await connection(0);
    await c.until(() => c.finished(1));
    expect(c.text(1)).toBe('invalid port header "0"');
  });
});

describe('which upgrade kubectl asked for', () => {
  const req = (headers: Record<string, string>) => ({ headers } as unknown as IncomingMessage);
  it('the WebSocket tunnel, SPDY, or kube-apiserver\'s refusal', () => {
    expect(portForwardUpgradeKind(req({ upgrade: 'websocket', 'sec-websocket-protocol': 'v5.channel.k8s.io, SPDY/3.1+portforward.k8s.io' }))).toBe('websocket');
    expect(portForwardUpgradeKind(req({ upgrade: 'SPDY/3.1', 'x-stream-protocol-version': 'portforward.k8s.io' }))).toBe('spdy');
    expect(portForwardUpgradeKind(req({ upgrade: 'websocket', 'sec-websocket-protocol': 'v4.channel.k8s.io' }))).toEqual({ message: 'unable to upgrade: unable to negotiate protocol: client supports [v4.channel.k8s.io], server accepts [SPDY/3.1+portforward.k8s.io]' });
    expect(portForwardUpgradeKind(req({ upgrade: 'h2c' }))).toEqual({ message: 'unable to upgrade: missing upgrade headers in request' });
  });

  it('dial errors in Go\'s words, others as Node says them', () => {
    const err = Object.assign(new Error('x'), { code: 'EHOSTUNREACH' });
    expect(dialErrorMessage({ host: '10.244.1.5', podId: 'u', namespaceName: 'kv-1-abc' }, 80, err)).toBe('error forwarding port 80 to pod u, uid : failed to connect to localhost:80 inside namespace "kv-1-abc", IPv4: dial tcp4 10.244.1.5:80: connect: no route to host');
    expect(dialErrorMessage(POD, 80, new Error('odd'))).toContain('dial tcp4 127.0.0.1:80: odd');
  });
});
