/**
 * Where virt-api finds this node's handler: the Node annotation `kubevirt.io/handler-endpoint`
 * (URL) and the bearer token (KV_HANDLER_TOKEN, or the file in the node runtime dir: created once,
 * 0600, kept across restarts).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { CoreV1Api } from '@kubernetes/client-node';
import { dataPaths } from '../data-dir';
import { messageOf } from '../kube/api-errors';
import { delay } from '../kube/backoff';
import { mergePatch } from '../kube/clients';
import type { Logger } from '../log';
import { Annotation, Label } from '../../lib/kubevirt/labels';

const RETRY_MS = 1_000;

export function handlerTokenPath(dataDir: string, node: string): string {
  return dataPaths(dataDir).handlerToken(node);
}

/**
 * The token virt-api must present: KV_HANDLER_TOKEN when the Pod has it (cluster mode: from Secret
 * virt-handler-token, the same variable virt-api reads), else the node's token file, created on first start.
 */
export function ensureHandlerToken(dataDir: string, node: string, env: Record<string, string | undefined> = process.env): string {
  const fromEnv = env.KV_HANDLER_TOKEN?.trim();
  if (fromEnv) return fromEnv;
  const file = handlerTokenPath(dataDir, node);
  try {
    const token = readFileSync(file, 'utf8').trim();
    if (token) return token;
  } catch { /* first start */ }
  mkdirSync(dataPaths(dataDir).node(node), { recursive: true });
  const token = randomBytes(32).toString('hex');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}

/**
 * Annotates the Node with the endpoint URL and labels it `kubevirt.io/schedulable=true` (launcher
 * Pods select on it, as in KubeVirt where virt-handler owns that label); retries until the kubelet
 * has registered the Node.
 */
export async function advertiseEndpoint(core: CoreV1Api, node: string, url: string, log: Logger, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    try {
      await core.patchNode({ name: node, body: { metadata: { labels: { [Label.Schedulable]: 'true' }, annotations: { [Annotation.HandlerEndpoint]: url } } } }, mergePatch);
      log.info({ url }, 'handler endpoint advertised on the node');
      return;
    } catch (err) {
      log.debug({ err: messageOf(err) }, 'node not ready for the endpoint annotation; retrying');
      await delay(RETRY_MS, signal);
    }
  }
}
