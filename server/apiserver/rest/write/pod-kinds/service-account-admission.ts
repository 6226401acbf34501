/**
 * kube-apiserver's ServiceAccount admission plugin on Pod create: serviceAccountName defaults to
 * `default`, the ServiceAccount must exist (else 403 with kube's message), and unless
 * automountServiceAccountToken is false (Pod first, then ServiceAccount) every container gets the
 * `kube-api-access-<5>` projected volume (bound token, kube-root-ca.crt, namespace) at
 * /var/run/secrets/kubernetes.io/serviceaccount.
 *
 * One difference: a missing `default` ServiceAccount is created here and now (the ServiceAccount
 * controller's job) instead of refusing a Pod created in the same instant as its namespace.
 */
import { randomInt } from 'node:crypto';
import type { ApiContext } from '../../api-context';
import { encodeObject, objectKey } from '../../codec/object-codec';
import { forbidden } from '../../status-error';
import { AlreadyExistsError } from '../../../store/types';
import { initObjectMeta } from '../object-meta';

export const SA_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
export const TOKEN_EXPIRATION_SECONDS = 3607;
const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
const DEFAULT_SA = 'default';
/** kube's utilrand alphabet (no vowels, no look-alikes) */
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

interface Mount { name: string; mountPath: string; readOnly?: boolean }
interface Container { volumeMounts?: Mount[] }
interface PodSpec {
  serviceAccountName?: string; serviceAccount?: string; automountServiceAccountToken?: boolean;
  containers?: Container[]; initContainers?: Container[]; volumes?: { name: string }[];
}
interface PodLike { metadata?: { name?: string; namespace?: string; annotations?: Record<string, string> }; spec?: PodSpec }
interface ServiceAccountLike { automountServiceAccountToken?: boolean; metadata?: unknown }

function apiAccessVolume(name: string): { name: string; projected: unknown } {
  return {
    name,
    projected: {
      defaultMode: 0o644,
      sources: [
        { serviceAccountToken: { expirationSeconds: TOKEN_EXPIRATION_SECONDS, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    },
  };
}

function randomSuffix(): string {
  return Array.from({ length: 5 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

/** the ServiceAccount, making `default` if it is the one missing (not for a dry run: it writes nothing) */
async function lookUpServiceAccount(ctx: ApiContext, namespace: string, name: string, dryRun: boolean): Promise<ServiceAccountLike | undefined> {
  const rt = ctx.registry.find('', 'v1', 'serviceaccounts');
  if (!rt) return {};
  const key = objectKey(rt, namespace, name);
  const kv = ctx.store.get(key);
  if (kv) return JSON.parse(kv.value) as ServiceAccountLike;
  if (name !== DEFAULT_SA) return undefined;
  const sa = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } };
  initObjectMeta(rt, sa);
  if (dryRun) return sa;
  try {
    await ctx.store.create(key, encodeObject(sa, rt));
    ctx.afterWrite?.(rt);
  } catch (err) {
    if (!(err instanceof AlreadyExistsError)) throw err;
  }
  return sa;
}

export async function admitPodServiceAccount(ctx: ApiContext, pod: PodLike, dryRun = false): Promise<void> {
  const meta = pod.metadata ?? {};
  if (meta.annotations?.[MIRROR_ANNOTATION] !== undefined) return;
  const spec = (pod.spec ??= {});
  const namespace = String(meta.namespace ?? 'default');
  const saName = String(spec.serviceAccountName || spec.serviceAccount || DEFAULT_SA);
  spec.serviceAccountName = saName;
  const sa = await lookUpServiceAccount(ctx, namespace, saName, dryRun);
  if (!sa) {
    throw forbidden(`pods "${meta.name}" is forbidden: error looking up service account ${namespace}/${saName}: serviceaccount "${saName}" not found`, { name: meta.name, kind: 'pods' });
  }
  const automount = spec.automountServiceAccountToken ?? sa.automountServiceAccountToken ?? true;
  if (automount === false) return;
  const containers: Container[] = [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
  const needing = containers.filter((c) => !(c.volumeMounts ?? []).some((m) => m.mountPath === SA_MOUNT_PATH));
  if (needing.length === 0) return;
  const taken = new Set((spec.volumes ?? []).map((v) => v.name));
  let name = `kube-api-access-${randomSuffix()}`;
  while (taken.has(name)) name = `kube-api-access-${randomSuffix()}`;
  spec.volumes = [...(spec.volumes ?? []), apiAccessVolume(name)];
  for (const c of needing) c.volumeMounts = [...(c.volumeMounts ?? []), { name, readOnly: true, mountPath: SA_MOUNT_PATH }];
}
