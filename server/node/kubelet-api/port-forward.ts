/**
 * The kubelet's port-forward (`kubectl port-forward`): POST /portForward/{namespace}/{pod} upgraded
 * either to a WebSocket carrying SPDY frames (subprotocol SPDY/3.1+portforward.k8s.io, what kubectl
 * 1.30+ tries first) or to SPDY/3.1 itself (X-Stream-Protocol-Version: portforward.k8s.io, its
 * fallback). Over the session the client opens, per connection it forwards, an "error" stream and a
 * "data" stream sharing a requestID and naming the port; the kubelet dials the Pod's port and copies
 * bytes both ways, or writes why it could not on the error stream.
 */
import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { SpdySession, type SpdySink, type SpdyStream } from '../../http/spdy/session';

export const PORT_FORWARD_PROTOCOL = 'portforward.k8s.io';
export const WEBSOCKET_TUNNEL_PROTOCOL = `SPDY/3.1+${PORT_FORWARD_PROTOCOL}`;
/** kube's streamCreationTimeout: both streams of a request must arrive within it */
const STREAM_PAIR_TIMEOUT_MS = 30_000;

/** where a Pod's ports are dialed from this node, and the names kube's error text carries */
export interface PortForwardPod {
  host: string;
  podId: string;
  namespaceName: string;
  /**
   * A Pod sharing the node's network (no pod network) may be forwarded only the ports its
   * containers declare: any other port on 127.0.0.1 is the host's (the API server, a migration's
   * disk export), not the Pod's. Undefined: every port (the Pod has its own network).
   */
  declaredPorts?: ReadonlySet<number>;
}

/** Go's texts for the dial failures a port-forward meets */
const GO_DIAL_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connect: connection refused',
  ETIMEDOUT: 'connect: connection timed out',
  EHOSTUNREACH: 'connect: no route to host',
  ENETUNREACH: 'connect: network is unreachable',
};

/** kube's message on the error stream when the Pod's port cannot be reached (containerd's wording) */
export function dialErrorMessage(pod: PortForwardPod, port: number, err: NodeJS.ErrnoException): string {
  const why = (err.code && GO_DIAL_ERRORS[err.code]) ?? err.message;
  const inner = `failed to connect to localhost:${port} inside namespace "${pod.namespaceName}", IPv4: dial tcp4 ${pod.host}:${port}: ${why}`;
  return `error forwarding port ${port} to pod ${pod.podId}, uid : ${inner}`;
}

interface Pair { data?: SpdyStream; error?: SpdyStream; timer: NodeJS.Timeout }

/** The port-forward protocol over one SPDY session: pairs streams by requestID, then dials. */
export function portForwardSession(sink: SpdySink, pod: PortForwardPod, dial: (host: string, port: number) => Socket = (h, p) => connect(p, h)): SpdySession {
  const pairs = new Map<string, Pair>();
  const forward = (id: string, p: Pair) => {
    clearTimeout(p.timer);
    pairs.delete(id);
    const data = p.data!;
    const error = p.error!;
    error.resume(); // the client half-closes its side at once; nothing to read
    const port = Number(data.headers.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      error.end(`invalid port header "${data.headers.port ?? ''}"`);
      data.end();
      return;
    }
    if (pod.declaredPorts && !pod.declaredPorts.has(port)) {
      error.end(`error forwarding port ${port} to pod ${pod.podId}, uid : port ${port} is not a port the Pod declares; a Pod sharing the node's network (no pod network) is forwarded only its containers' ports`);
      data.end();
      return;
    }
    const socket = dial(pod.host, port);
    let connected = false;
    socket.once('connect', () => {
      connected = true;
      data.pipe(socket);
      socket.pipe(data);
      error.end();
    });
    socket.once('error', (err: NodeJS.ErrnoException) => {
      if (connected) return void data.destroy();
      error.end(dialErrorMessage(pod, port, err));
      data.end();
    });
    data.once('close', () => socket.destroy());
    data.on('error', () => socket.destroy());
  };
  return new SpdySession(sink, (stream) => {
    const id = stream.headers.requestid ?? String(stream.id);
    const type = stream.headers.streamtype;
    if (type !== 'data' && type !== 'error') {
      stream.destroy();
      return;
    }
    const p = pairs.get(id) ?? { timer: setTimeout(() => { pairs.delete(id); p.data?.destroy(); p.error?.destroy(); }, STREAM_PAIR_TIMEOUT_MS).unref() };
    pairs.set(id, p);
    if (p[type]) return void stream.destroy(); // a second stream of one kind for a request
    p[type] = stream;
    stream.on('error', () => undefined);
    if (p.data && p.error) forward(id, p);
  });
}

/**
 * ws refuses the subprotocol kube names ("/" is not a token character), so the offer is checked
 * here (portForwardUpgradeKind), taken off the request, and the choice added to the 101 answer.
 */
const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
const tunneled = new WeakSet<IncomingMessage>();
wss.on('headers', (headers: string[], req: IncomingMessage) => {
  if (tunneled.has(req)) headers.push(`Sec-WebSocket-Protocol: ${WEBSOCKET_TUNNEL_PROTOCOL}`);
});

function headerList(v: string | string[] | undefined): string[] {
  return (Array.isArray(v) ? v.join(',') : (v ?? '')).split(',').map((s) => s.trim()).filter(Boolean);
}

/** which of the two upgrades the client asked for, or why neither */
export function portForwardUpgradeKind(req: IncomingMessage): 'websocket' | 'spdy' | { message: string } {
  const upgrade = (req.headers.upgrade ?? '').toLowerCase();
  if (upgrade === 'websocket') {
    const offered = headerList(req.headers['sec-websocket-protocol']);
    return offered.includes(WEBSOCKET_TUNNEL_PROTOCOL) ? 'websocket' : { message: `unable to upgrade: unable to negotiate protocol: client supports [${offered.join(' ')}], server accepts [${WEBSOCKET_TUNNEL_PROTOCOL}]` };
  }
  if (upgrade === 'spdy/3.1') {
    const offered = headerList(req.headers['x-stream-protocol-version']);
    if (offered.length && !offered.includes(PORT_FORWARD_PROTOCOL)) return { message: `unable to upgrade: unable to negotiate protocol: client supports [${offered.join(' ')}], server accepts [${PORT_FORWARD_PROTOCOL}]` };
    return 'spdy';
  }
  return { message: 'unable to upgrade: missing upgrade headers in request' };
}

function socketSink(socket: Duplex): SpdySink {
  return {
    write: (frame) => new Promise((resolve, reject) => socket.write(frame, (err) => (err ? reject(err) : resolve()))),
    close: () => socket.destroy(),
  };
}

function webSocketSink(ws: WebSocket): SpdySink {
  return {
    // kube's tunnel writes each SPDY frame as one binary message
    write: (frame) => new Promise((resolve, reject) => ws.send(frame, { binary: true }, (err) => (err ? reject(err) : resolve()))),
    close: () => ws.terminate(),
  };
}

/** completes an accepted upgrade and serves port-forward on it */
export function servePortForward(kind: 'websocket' | 'spdy', req: IncomingMessage, socket: Duplex, head: Buffer, pod: PortForwardPod): void {
  if (kind === 'spdy') {
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: ${PORT_FORWARD_PROTOCOL}\r\n\r\n`);
    const session = portForwardSession(socketSink(socket), pod);
    if (head.length) session.receive(head);
    socket.on('data', (chunk: Buffer) => session.receive(chunk));
    // the client hanging up ends the session (the server's sockets allow half-open connections)
    socket.on('end', () => session.close());
    socket.on('close', () => session.close());
    socket.on('error', () => session.close());
    return;
  }
  delete req.headers['sec-websocket-protocol'];
  tunneled.add(req);
  wss.handleUpgrade(req, socket, head, (ws) => {
    const session = portForwardSession(webSocketSink(ws), pod);
    ws.on('message', (data: Buffer, isBinary: boolean) => (isBinary ? session.receive(data) : ws.close(1003, 'binary messages only')));
    ws.on('close', () => session.close());
    ws.on('error', () => session.close());
  });
}
