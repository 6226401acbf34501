/**
 * The browser's end of `/ws/watch`: one WebSocket per tab carrying every subscription, refcounted
 * per id, resubscribed (so relisted) after a reconnect. Reconnects forever with backoff; its state
 * is shown in the header ("live" / "reconnecting").
 */
import type { WatchMessage, WatchRequest } from '@/lib/console/watch-events';

type Listener = (m: WatchMessage) => void;
type SubscribeRequest = Extract<WatchRequest, { op: 'subscribe' }>;
export type LinkState = 'connecting' | 'live' | 'reconnecting';

const LINGER_MS = 10_000; // keep a watch a while after its last user leaves (back/forward navigation)
const BACKOFF_MAX_MS = 5_000;

class WatchClient {
  private ws?: WebSocket;
  private readonly subs = new Map<string, { req: SubscribeRequest; listeners: Set<Listener>; linger?: ReturnType<typeof setTimeout> }>();
  private readonly stateListeners = new Set<(s: LinkState) => void>();
  private state: LinkState = 'connecting';
  private attempt = 0;

  subscribe(req: Omit<SubscribeRequest, 'op'>, listener: Listener): () => void {
    let sub = this.subs.get(req.id);
    if (!sub) {
      sub = { req: { op: 'subscribe', ...req }, listeners: new Set() };
      this.subs.set(req.id, sub);
      this.send(sub.req);
    }
    if (sub.linger) { clearTimeout(sub.linger); sub.linger = undefined; }
    sub.listeners.add(listener);
    this.ensureSocket();
    const s = sub;
    return () => {
      s.listeners.delete(listener);
      if (s.listeners.size === 0) s.linger = setTimeout(() => this.drop(req.id), LINGER_MS);
    };
  }

  onState(fn: (s: LinkState) => void): () => void {
    this.stateListeners.add(fn);
    fn(this.state);
    return () => this.stateListeners.delete(fn);
  }

  private drop(id: string): void {
    const sub = this.subs.get(id);
    if (!sub || sub.listeners.size) return;
    this.subs.delete(id);
    this.send({ op: 'unsubscribe', id });
  }

  private send(req: WatchRequest): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(req));
  }

  private setState(s: LinkState): void {
    this.state = s;
    for (const fn of this.stateListeners) fn(s);
  }

  private ensureSocket(): void {
    if (this.ws || typeof window === 'undefined') return;
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/watch`);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.setState('live');
      for (const s of this.subs.values()) ws.send(JSON.stringify(s.req));
    };
    ws.onmessage = (e) => {
      const batch = JSON.parse(String(e.data)) as WatchMessage[];
      for (const m of batch) this.subs.get(m.id)?.listeners.forEach((l) => l(m));
    };
    ws.onclose = () => {
      this.ws = undefined;
      this.setState('reconnecting');
      this.attempt += 1;
      setTimeout(() => this.ensureSocket(), Math.min(BACKOFF_MAX_MS, 250 * 2 ** this.attempt));
    };
  }
}

let client: WatchClient | undefined;

export function watchClient(): WatchClient {
  client ??= new WatchClient();
  return client;
}
