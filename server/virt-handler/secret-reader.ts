/**
 * virt-handler's one way to read a Secret: its values base64-encoded as the API stores `data`
 * (`stringData`, when a server returns it, encoded the same way), or undefined when the Secret
 * does not exist. What absence means and whether values are decoded is the caller's choice:
 * launcher inputs hand base64 to the launcher and name the missing input, access credentials
 * decode and report the API's not-found message.
 */
import type { CoreV1Api } from '@kubernetes/client-node';
import { unlessNotFound } from '../kube/api-errors';

export type SecretData = Record<string, string>;
export type ReadSecretData = (namespace: string, name: string) => Promise<SecretData | undefined>;

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

export function secretDataReader(core: CoreV1Api): ReadSecretData {
  return async (namespace, name) => {
    const s = await unlessNotFound(core.readNamespacedSecret({ namespace, name }));
    if (!s) return undefined;
    return { ...(s.data ?? {}), ...Object.fromEntries(Object.entries(s.stringData ?? {}).map(([k, v]) => [k, b64(v)])) };
  };
}

/** A Secret's values as UTF-8 text. */
export function decodeSecretData(data: SecretData): Record<string, string> {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
}
