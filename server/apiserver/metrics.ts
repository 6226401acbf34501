import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RequestInfo } from './rest/request-info';

/**
 * kube-apiserver's request metrics (names as kube's), served at /metrics. One registry per
 * API server, so several servers in one process (tests) do not collide.
 */
export interface ApiServerMetrics {
  registry: Registry;
  /** `user`: the authenticated (or impersonated) user, when the request got that far */
  observeRequest(info: RequestInfo, code: number, seconds: number, user?: string): void;
  watchStarted(info: RequestInfo): () => void;
  /** a client finished a TLS handshake with the server; `resumed`: by session resumption (no key exchange with the serving key) */
  connectionAccepted(resumed: boolean): void;
}

/** kube's verb label: POST for create, PUT for update, the verb in capitals otherwise */
const verbLabel = (verb: string) => (verb === 'create' ? 'POST' : verb === 'update' ? 'PUT' : verb.toUpperCase());

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type CommitStats = () => { batches: number; writes: number; syncs: number };

/**
 * The store's group commit (ours, no kube equivalent: etcd reports fsync durations instead):
 * commits, the writes they carried (writes / commits = writes per fsync) and WAL syncs.
 */
function registerStoreCounters(registry: Registry, stats: CommitStats): void {
  const counters: Array<[string, string, keyof ReturnType<CommitStats>]> = [
    ['kv_store_commits_total', 'Transactions the store committed (each carries every write of one event-loop turn).', 'batches'],
    ['kv_store_committed_writes_total', 'Writes (creates, updates, deletes) the store committed.', 'writes'],
    ['kv_store_wal_syncs_total', 'WAL fdatasyncs; each makes every commit before it durable.', 'syncs'],
  ];
  for (const [name, help, field] of counters) {
    let reported = 0;
    new Counter({ name, help, registers: [registry], collect() {
      const now = stats()[field];
      this.inc(Math.max(0, now - reported));
      reported = now;
    } });
  }
}

export function createApiServerMetrics(storeStats?: CommitStats): ApiServerMetrics {
  const registry = new Registry();
  if (storeStats) registerStoreCounters(registry, storeStats);
  const requests = new Counter({ name: 'apiserver_request_total', help: 'Counter of apiserver requests broken out by verb, group, resource and HTTP response code.', labelNames: ['verb', 'group', 'resource', 'subresource', 'code'], registers: [registry] });
  const duration = new Histogram({ name: 'apiserver_request_duration_seconds', help: 'Response latency distribution in seconds for each verb, group and resource (watches excluded).', labelNames: ['verb', 'group', 'resource'], buckets: DURATION_BUCKETS, registers: [registry] });
  // not kube's: kube-apiserver does not break requests out by client (its audit log does); ours
  // does for writes, so a bench can count each component's writes and conflicts per object
  const writes = new Counter({ name: 'kubevirt_ts_apiserver_write_requests_total', help: 'Counter of mutating apiserver requests broken out by verb, group, resource, subresource, HTTP response code and user.', labelNames: ['verb', 'group', 'resource', 'subresource', 'code', 'user'], registers: [registry] });
  const watchers = new Gauge({ name: 'apiserver_longrunning_requests', help: 'Gauge of all active long-running apiserver requests (watches).', labelNames: ['group', 'resource'], registers: [registry] });
  // not kube's: what clients that do not keep their connections cost (a full handshake signs with the serving key)
  const connections = new Counter({ name: 'kubevirt_ts_apiserver_tls_connections_total', help: 'TLS connections the API server accepted, by whether the client resumed an earlier session.', labelNames: ['resumed'], registers: [registry] });
  return {
    registry,
    connectionAccepted(resumed) {
      connections.inc({ resumed: String(resumed) });
    },
    observeRequest(info, code, seconds, user) {
      const resource = info.isResource ? info.resource : '';
      requests.inc({ verb: verbLabel(info.verb), group: info.group, resource, subresource: info.subresource ?? '', code: String(code) });
      if (info.isResource && WRITE_VERBS.has(info.verb)) writes.inc({ verb: verbLabel(info.verb), group: info.group, resource, subresource: info.subresource ?? '', code: String(code), user: user ?? '' });
      if (info.verb !== 'watch') duration.observe({ verb: verbLabel(info.verb), group: info.group, resource }, seconds);
    },
    watchStarted(info) {
      const labels = { group: info.group, resource: info.resource };
      watchers.inc(labels);
      return () => watchers.dec(labels);
    },
  };
}
