/**
 * The NetworkPolicy enforcer of the embedded cluster: watches NetworkPolicies, Pods and
 * Namespaces and keeps one nftables table (`inet kv-policy`) in line with them. Every change
 * schedules one full render (debounced, DEBOUNCE_MS); the table is replaced atomically, and only
 * when its text changed. Stopping removes the table.
 */
import type { KubeConfig, V1Namespace, V1Pod } from '@kubernetes/client-node';
import { Controller } from '../../kube/controller';
import { Informer } from '../../kube/informer';
import type { Logger } from '../../log';
import { ensureBridgedTrafficFiltered, nftApply } from './nft-apply';
import { renderPolicyDeleteScript, renderPolicyReplaceScript } from './nft-policy-ruleset';
import { buildPolicyModel, type NetworkPolicyObject } from './policy-model';

export const POLICY_TABLE = 'kv-policy';
/** how long a burst of changes is gathered before the table is rendered */
export const DEBOUNCE_MS = 20;
const TABLE_KEY = 'table';

export interface PolicyEnforcerOptions {
  kc: KubeConfig;
  signal: AbortSignal;
  log: Logger;
  /** the nftables table (tests use their own name) */
  table?: string;
  /** called after each successful apply (tests measure enforcement latency with it) */
  onApplied?: () => void;
}

export async function runNetworkPolicyEnforcer(opts: PolicyEnforcerOptions): Promise<void> {
  const table = opts.table ?? POLICY_TABLE;
  const log = opts.log.child({ component: 'network-policy' });
  const problem = ensureBridgedTrafficFiltered();
  if (problem) log.warn(problem);

  const policies = new Informer<NetworkPolicyObject>({ kc: opts.kc, path: '/apis/networking.k8s.io/v1/networkpolicies' });
  const pods = new Informer<V1Pod>({ kc: opts.kc, path: '/api/v1/pods' });
  const namespaces = new Informer<V1Namespace>({ kc: opts.kc, path: '/api/v1/namespaces' });
  let applied = '';

  const controller = new Controller({
    name: 'network-policy',
    informers: [policies, pods, namespaces],
    async execute() {
      const model = buildPolicyModel({ policies: policies.list(), pods: pods.list(), namespaces: namespaces.list() });
      const script = renderPolicyReplaceScript(model, { table });
      if (script === applied) return;
      await nftApply(script);
      applied = script;
      log.info({ table, ingressIsolated: model.ingress.length, egressIsolated: model.egress.length }, 'network policy rules applied');
      opts.onApplied?.();
    },
  });

  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    timer ??= setTimeout(() => {
      timer = undefined;
      controller.enqueue(TABLE_KEY);
    }, DEBOUNCE_MS);
  };
  const handlers = { add: schedule, update: schedule, delete: schedule };
  policies.on(handlers);
  pods.on(handlers);
  namespaces.on(handlers);
  controller.enqueue(TABLE_KEY);

  await Promise.all([policies.run(opts.signal), pods.run(opts.signal), namespaces.run(opts.signal), controller.run(opts.signal)]);
  clearTimeout(timer);
  await nftApply(renderPolicyDeleteScript({ table })).catch((err: unknown) => log.warn({ err: (err as Error).message, table }, 'could not remove the network policy table'));
}
