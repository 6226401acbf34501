import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import type { KubeConfig } from '@kubernetes/client-node';
import type pino from 'pino';
import { run, tryRun } from '../../node/network/ip-command';
import { ensureHostLink, removeHostLink } from '../host-link';
import { ServiceCache } from '../service-cache';
import { isDnsService, SERVICE_CIDR } from '../service-model';
import { PROXY_TABLE, renderProxyReplaceScript } from './proxy-ruleset';

/** The dummy link that carries the Service range's route, so ClusterIP traffic never leaves through the default route. */
export const SERVICE_LINK = 'kv-svc0';
/** Changes closer together than this are written as one table replacement... */
export const PROXY_DEBOUNCE_MS = 50;
/** ...but a steady stream of changes never holds the rules back longer than this. */
export const PROXY_MAX_DELAY_MS = 500;

/** Run `nft -f -` with a script without blocking the event loop. */
export function nftApply(script: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = execFile('nft', ['-f', '-'], (err, _out, stderr) => (err ? reject(new Error(`nft -f -: ${stderr.trim() || err.message}`)) : resolve()));
    child.stdin?.end(script);
  });
}

function writeSysctl(path: string, value: string): void {
  if (existsSync(path)) writeFileSync(path, value);
}

/**
 * What the host needs besides the table: IPv4 forwarding; bridged Pod-to-Pod replies through
 * conntrack (br_netfilter, where the module is loaded), so a DNATed reply is un-NATed; localhost
 * NodePorts (route_localnet: a DNATed packet from 127.0.0.1 may leave through the bridge, then
 * masquerade gives it the bridge's address); a route for the Service range on a dummy link.
 */
export function prepareHost(): void {
  writeSysctl('/proc/sys/net/ipv4/ip_forward', '1');
  writeSysctl('/proc/sys/net/bridge/bridge-nf-call-iptables', '1');
  writeSysctl('/proc/sys/net/ipv4/conf/all/route_localnet', '1');
  ensureHostLink(SERVICE_LINK);
  run('ip', ['route', 'replace', SERVICE_CIDR, 'dev', SERVICE_LINK]);
}

export interface ServiceProxyOptions {
  kc: KubeConfig;
  signal: AbortSignal;
  log: pino.Logger;
  /** called after each table replacement (tests, metrics) */
  onApplied?: (info: { ports: number; ms: number }) => void;
}

/**
 * The embedded kube-proxy (nftables mode): watches Services and EndpointSlices and keeps the table
 * `ip kv-proxy` equal to renderProxyRules of them, replaced atomically PROXY_DEBOUNCE_MS after the
 * last change (at most PROXY_MAX_DELAY_MS after the first of a stream of changes). kube-system/kube-dns is skipped: the DNS server listens on its ClusterIP itself.
 * The table and the Service range's link are removed when the signal aborts.
 */
export async function runServiceProxy(opts: ServiceProxyOptions): Promise<void> {
  const { signal, log } = opts;
  prepareHost();
  let timer: NodeJS.Timeout | undefined;
  let applied = '';
  let applying: Promise<void> = Promise.resolve();
  let pendingSince: number | undefined;
  const sync = async () => {
    pendingSince = undefined;
    const started = performance.now();
    const ports = cache.ports((s) => !isDnsService(s));
    const script = renderProxyReplaceScript({ ports });
    if (script === applied) return;
    try {
      await nftApply(script);
      applied = script;
      const ms = performance.now() - started;
      log.debug({ ports: ports.length, ms: Math.round(ms) }, 'service rules replaced');
      opts.onApplied?.({ ports: ports.length, ms });
    } catch (err) {
      log.error({ err: err instanceof Error ? err.message : String(err) }, 'replacing the service rules failed; retrying');
      schedule(1000);
    }
  };
  const schedule = (ms = PROXY_DEBOUNCE_MS) => {
    if (signal.aborted) return;
    const now = performance.now();
    pendingSince ??= now;
    clearTimeout(timer);
    timer = setTimeout(() => (applying = applying.then(sync)), Math.min(ms, Math.max(0, pendingSince + PROXY_MAX_DELAY_MS - now)));
  };
  const cache = new ServiceCache(opts.kc, () => schedule());
  const { running } = await cache.start(signal);
  if (!signal.aborted) schedule(0);
  log.info('service proxy started (nftables table ip kv-proxy)');
  await running;
  clearTimeout(timer);
  await applying;
  tryRun('nft', ['delete', 'table', 'ip', PROXY_TABLE]);
  removeHostLink(SERVICE_LINK); // its route for the Service range goes with it
}
