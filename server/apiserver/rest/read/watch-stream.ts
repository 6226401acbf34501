import type { IncomingMessage, ServerResponse } from 'node:http';
import { CompactedError, type StoreEvent } from '../../store/types';
import type { ApiContext } from '../api-context';
import type { ObjectMatcher } from './field-selectors';
import { decodeObject, objectPrefix } from '../codec/object-codec';
import { decodedEvent } from './decoded-event';
import { rawEventLine } from './raw-event-line';
import { listObjects } from './read-objects';
import type { ApiObject } from '../types/api-object';
import { groupVersion, type ServedType } from '../types/resource-type';
import { badRequest, statusObject } from '../status-error';

export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';
const MAX_PENDING_BYTES = 32 * 1024 * 1024;

export interface WatchParams {
  match?: ObjectMatcher;
  resourceVersion: string;
  allowBookmarks: boolean;
  sendInitialEvents: boolean;
  timeoutSeconds?: number;
  bookmarkIntervalMs: number;
  /** turns an object into what the client asked for (object, Table, metadata) */
  represent: (obj: ApiObject) => unknown;
  /** true when the client wants plain objects: events are written from stored text */
  raw?: boolean;
}

const expiredEvent = (rv: string, oldest: number) => ({
  type: 'ERROR',
  object: statusObject(410, 'Expired', `too old resource version: ${rv} (${oldest})`),
});

/** which watch event a store event becomes for a client with a selector */
function eventTypeFor(e: StoreEvent, nowMatches: boolean, wasMatching: boolean): string | undefined {
  if (e.type === 'ADDED') return nowMatches ? 'ADDED' : undefined;
  if (e.type === 'DELETED') return nowMatches ? 'DELETED' : undefined;
  if (nowMatches) return wasMatching ? 'MODIFIED' : 'ADDED';
  return wasMatching ? 'DELETED' : undefined;
}

/** WATCH: a chunked stream of WatchEvent lines; replay after resourceVersion, then live */
export function serveWatch(ctx: ApiContext, rt: ServedType, namespace: string | undefined, req: IncomingMessage, res: ServerResponse, p: WatchParams): void {
  const fromList = p.resourceVersion === '' || p.resourceVersion === '0' || p.sendInitialEvents;
  const startRev = fromList ? 0 : Number(p.resourceVersion);
  if (!fromList && (!Number.isInteger(startRev) || startRev < 0)) throw badRequest(`invalid resource version: ${p.resourceVersion}`);
  const abort = new AbortController();
  const timers: NodeJS.Timeout[] = [];
  let lastRev = startRev;
  const finish = () => {
    if (abort.signal.aborted) return;
    abort.abort();
    timers.forEach(clearTimeout);
    res.end();
  };
  const write = (line: string | Buffer) => {
    if (abort.signal.aborted) return;
    res.write(line);
    if (res.writableLength > MAX_PENDING_BYTES) finish();
  };
  const send = (type: string, object: unknown) => write(`${JSON.stringify({ type, object })}\n`);
  const bookmark = (annotations?: Record<string, string>) =>
    send('BOOKMARK', { kind: rt.kind, apiVersion: groupVersion(rt), metadata: { resourceVersion: String(lastRev), ...(annotations ? { annotations } : {}) } });

  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
  res.flushHeaders();
  req.on('close', finish);
  res.on('close', finish);

  if (fromList) {
    const list = listObjects(ctx, rt, namespace, { match: p.match });
    for (const obj of list.items) send('ADDED', p.represent(obj));
    lastRev = Number(list.resourceVersion);
    if (p.sendInitialEvents && p.allowBookmarks) bookmark({ [INITIAL_EVENTS_END_ANNOTATION]: 'true' });
  } else if (startRev < ctx.store.compactRevision()) {
    send('ERROR', expiredEvent(p.resourceVersion, ctx.store.compactRevision()).object);
    return finish();
  }
  const onEvent = (e: StoreEvent) => {
    try {
      deliver(e);
    } catch (err) {
      ctx.log.warn({ err: String(err), key: e.kv.key }, 'watch event could not be encoded; closing the watch');
      finish();
    }
  };
  const deliver = (e: StoreEvent) => {
    lastRev = e.kv.modRevision;
    if (p.raw && !p.match) return write(rawEventLine(rt, e));
    const { object: obj, previous } = decodedEvent(rt, e);
    const nowMatches = !p.match || p.match(obj);
    const wasMatching = !p.match || (previous !== undefined && p.match(previous));
    const type = eventTypeFor(e, nowMatches, wasMatching);
    if (!type) return;
    // the same event type as stored: the line every plain watcher of the type shares
    if (p.raw && type === e.type) return write(rawEventLine(rt, e));
    send(type, p.represent(obj));
  };
  try {
    ctx.store.watch(objectPrefix(rt, namespace), { afterRevision: lastRev, signal: abort.signal, onEvent, onDropped: finish });
  } catch (err) {
    if (!(err instanceof CompactedError)) throw err;
    send('ERROR', expiredEvent(p.resourceVersion, err.compactRevision).object);
    return finish();
  }
  if (p.allowBookmarks) timers.push(setInterval(() => bookmark(), p.bookmarkIntervalMs));
  if (p.timeoutSeconds && p.timeoutSeconds > 0) timers.push(setTimeout(finish, p.timeoutSeconds * 1000));
}
