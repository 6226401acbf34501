import { readFileSync } from 'node:fs';
import type { KubeConfig } from '@kubernetes/client-node';
import type pino from 'pino';
import { Backoff, delay } from '../../kube/backoff';
import { makeKubeClients } from '../../kube/clients';
import { messageOf } from '../../kube/api-errors';
import { tryRun } from '../../node/network/ip-command';
import { ensureHostAddress } from '../host-link';
import { ServiceCache } from '../service-cache';
import { DNS_SERVICE } from '../service-model';
import { buildDnsModel, type DnsModel } from './dns-model';
import { DnsServer, parseResolvConf } from './dns-server';
import { upsertKubeDnsService } from './kube-dns-service';

/** The dummy link that holds the DNS address, so Pods reach it through their gateway. */
export const DNS_LINK = 'kv-dns0';

export interface ClusterDnsOptions {
  kc: KubeConfig;
  signal: AbortSignal;
  log: pino.Logger;
  /** where forwarded names go (default /etc/resolv.conf) */
  resolvConf?: string;
}

export function ensureDnsLink(address: string): void {
  ensureHostAddress(DNS_LINK, address);
}

/**
 * The cluster DNS: 10.96.0.10:53 on UDP and TCP (on the dummy link kv-dns0), answering
 * cluster.local from the Services and EndpointSlices, forwarding other names to the host's
 * resolvers, and keeping the kube-system/kube-dns Service in place. Resolves when the signal aborts
 * (the listener and kv-dns0 are removed).
 */
export async function runClusterDns(opts: ClusterDnsOptions): Promise<void> {
  const { signal, log } = opts;
  ensureDnsLink(DNS_SERVICE.clusterIP);
  let model: DnsModel | undefined;
  const cache = new ServiceCache(opts.kc, () => (model = undefined));
  const resolvConf = opts.resolvConf ?? '/etc/resolv.conf';
  const server = new DnsServer({
    address: DNS_SERVICE.clusterIP,
    port: 53,
    log,
    model: () => (model ??= buildDnsModel(cache.services.list(), (ns, n) => cache.slicesOf(ns, n))),
    upstreams: () => {
      try {
        return parseResolvConf(readFileSync(resolvConf, 'utf8'), [DNS_SERVICE.clusterIP]);
      } catch {
        return [];
      }
    },
  });
  try {
    const { running } = await cache.start(signal);
    if (!signal.aborted) {
      await server.listen();
      log.info({ address: `${DNS_SERVICE.clusterIP}:53` }, 'cluster DNS listening (udp, tcp)');
      void keepKubeDnsService(opts);
    }
    await running;
  } finally {
    await server.close();
    tryRun('ip', ['link', 'del', DNS_LINK]);
  }
}

async function keepKubeDnsService(opts: ClusterDnsOptions): Promise<void> {
  const core = makeKubeClients(opts.kc).core;
  const backoff = new Backoff();
  while (!opts.signal.aborted) {
    try {
      await upsertKubeDnsService(core);
      return;
    } catch (err) {
      opts.log.warn({ err: messageOf(err) }, 'could not write the kube-system/kube-dns Service; retrying');
      await delay(backoff.next(), opts.signal).catch(() => undefined);
    }
  }
}
