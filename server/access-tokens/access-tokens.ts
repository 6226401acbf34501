/**
 * `kv token` tokens: each is a ServiceAccount in kubevirt-ts-tokens (kv-<role>-<random>) bound to
 * the ClusterRole of its role, with a TokenRequest token of the asked lifetime. Revoking deletes the
 * ServiceAccount and its binding, so every token it was given stops working at once.
 */
import { randomBytes } from 'node:crypto';
import { CoreV1Api, type KubeConfig, type V1ServiceAccount } from '@kubernetes/client-node';
import { isConflict, isNotFound } from '../kube/api-errors';
import { createRoleBinding, deleteRoleBinding, type TokenRole } from './role-binding';

export const TOKENS_NAMESPACE = 'kubevirt-ts-tokens';
const ROLE_LABEL = 'kubevirt-ts.io/token-role';
const SCOPE_ANNOTATION = 'kubevirt-ts.io/token-namespace';
const EXPIRES_ANNOTATION = 'kubevirt-ts.io/token-expires';

export interface CreatedToken { name: string; role: TokenRole; namespace?: string; token: string; expiresAt: string }
export interface ListedToken { name: string; role: string; scope: string; createdAt: string; expiresAt: string }

const shortRandom = () => randomBytes(4).toString('hex').slice(0, 6);

async function ensureNamespace(core: CoreV1Api): Promise<void> {
  try {
    await core.createNamespace({ body: { metadata: { name: TOKENS_NAMESPACE } } });
  } catch (err) {
    if (!isConflict(err)) throw err;
  }
}

export async function createAccessToken(kc: KubeConfig, opts: { role: TokenRole; ttlSeconds: number; namespace?: string }): Promise<CreatedToken> {
  const core = kc.makeApiClient(CoreV1Api);
  await ensureNamespace(core);
  const name = `kv-${opts.role}-${shortRandom()}`;
  const labels = { [ROLE_LABEL]: opts.role };
  const expiresAt = new Date(Date.now() + opts.ttlSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  await core.createNamespacedServiceAccount({
    namespace: TOKENS_NAMESPACE,
    body: { metadata: { name, labels, annotations: { [SCOPE_ANNOTATION]: opts.namespace ?? '', [EXPIRES_ANNOTATION]: expiresAt } } },
  });
  try {
    await createRoleBinding(kc, { name, role: opts.role, namespace: opts.namespace, subject: { namespace: TOKENS_NAMESPACE, name }, labels });
    const tr = await core.createNamespacedServiceAccountToken({ name, namespace: TOKENS_NAMESPACE, body: { spec: { audiences: [], expirationSeconds: opts.ttlSeconds } } });
    return { name, role: opts.role, namespace: opts.namespace, token: tr.status!.token, expiresAt: toIso(tr.status!.expirationTimestamp) ?? expiresAt };
  } catch (err) {
    await revokeAccessToken(kc, name).catch(() => undefined); // leave no half-made token behind
    throw err;
  }
}

const toIso = (v: unknown): string | undefined => (v instanceof Date ? v.toISOString().replace(/\.\d{3}Z$/, 'Z') : typeof v === 'string' ? v : undefined);

export async function listAccessTokens(kc: KubeConfig): Promise<ListedToken[]> {
  const core = kc.makeApiClient(CoreV1Api);
  let items: V1ServiceAccount[];
  try {
    items = (await core.listNamespacedServiceAccount({ namespace: TOKENS_NAMESPACE, labelSelector: ROLE_LABEL })).items;
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  }
  return items.map((sa) => ({
    name: sa.metadata!.name!, role: sa.metadata!.labels?.[ROLE_LABEL] ?? '',
    scope: sa.metadata!.annotations?.[SCOPE_ANNOTATION] || 'all namespaces',
    createdAt: toIso(sa.metadata!.creationTimestamp) ?? '', expiresAt: sa.metadata!.annotations?.[EXPIRES_ANNOTATION] ?? '',
  })).sort((a, b) => a.name.localeCompare(b.name));
}

/** Deletes the token's binding and ServiceAccount; false when there is no such token. */
export async function revokeAccessToken(kc: KubeConfig, name: string): Promise<boolean> {
  const core = kc.makeApiClient(CoreV1Api);
  let sa: V1ServiceAccount;
  try {
    sa = await core.readNamespacedServiceAccount({ name, namespace: TOKENS_NAMESPACE });
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
  if (!sa.metadata?.labels?.[ROLE_LABEL]) return false; // not one of ours
  await deleteRoleBinding(kc, name, sa.metadata.annotations?.[SCOPE_ANNOTATION] || undefined);
  try {
    await core.deleteNamespacedServiceAccount({ name, namespace: TOKENS_NAMESPACE });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  return true;
}
